// Python syntax colouring for model scripts in a QTextDocument.
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace fl::viz {

class PythonHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit PythonHighlighter(QTextDocument* doc);

protected:
    void highlightBlock(const QString& text) override;

private:
    struct Rule { QRegularExpression re; QTextCharFormat fmt; };
    std::vector<Rule> rules_;
    QTextCharFormat stringFmt_, commentFmt_;
};

} // namespace fl::viz
