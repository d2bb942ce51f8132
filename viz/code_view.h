// A source view with line numbers and marked lines (errors now; breaks and recompiles later).
#pragma once

#include <QPlainTextEdit>
#include <QSet>

namespace fl::viz {

class CodeView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit CodeView(QWidget* parent = nullptr);
    int lineNumberAreaWidth() const;
    void paintLineNumbers(QPaintEvent* event);
    void setErrorLine(int line);  // 0 clears
    int errorLine() const { return errorLine_; }

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void updateMargins();
    void updateArea(const QRect& rect, int dy);
    void refreshSelections();
    QWidget* lineArea_;
    int errorLine_ = 0;
};

} // namespace fl::viz
