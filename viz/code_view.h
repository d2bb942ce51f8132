// A source view with line numbers and marked lines: the failing line of a run, graph-break lines
// (red gutter mark, wavy underline; a red ring on the calls that led to a break in a helper), lines whose guard forced a recompile (amber), each with a
// tooltip; lines tinted by the kernel that covers them (Compiler Explorer style) and lines
// highlighted by a selection elsewhere. Clicks report the line: in the gutter as markClicked,
// in the text as lineClicked.
#pragma once

#include <QColor>
#include <QMap>
#include <QPlainTextEdit>
#include <QSet>

namespace fl::viz {

struct LineMark {
    // Break: the line that broke; BreakCall: a call on the way to a break in a helper (the
    // compiled frame's graph ends at that call); Recompile: a guard's line or a call that recompiled.
    enum Kind { Break, Recompile, BreakCall } kind = Break;
    int line = 0;
    QString tooltip; // rich text: reason, explanation, hint
};

class CodeView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit CodeView(QWidget* parent = nullptr);
    int lineNumberAreaWidth() const;
    void paintLineNumbers(QPaintEvent* event);
    void setErrorLine(int line);  // 0 clears
    int errorLine() const { return errorLine_; }

    void setMarks(const QList<LineMark>& marks);
    const QList<LineMark>& marks() const { return marks_; }
    void setLineTints(const QMap<int, QColor>& tints); // line -> background tint
    const QMap<int, QColor>& lineTints() const { return tints_; }
    void setHighlightedLines(const QList<int>& lines); // a selection elsewhere; scrolls to the first
    const QList<int>& highlightedLines() const { return highlighted_; }
    QString markTooltip(int line) const;   // empty when the line has no mark
    int lineAt(const QPoint& viewportPos) const;
    QRect gutterRectOfLine(int line) const; // in the view's coordinates (for tests)
    void clickGutter(int line) { Q_EMIT markClicked(line); }

    // One foldable region (a kernel's math helpers): lines first+1 .. last hide behind line
    // `first`, which then reads "… label"; a click on that line folds or unfolds it.
    void setFoldRegion(int first, int last, const QString& label); // first 0: none
    void setFolded(bool folded);
    bool isFolded() const { return folded_; }
    int foldFirst() const { return foldFirst_; }
    bool isLineVisible(int line) const;

Q_SIGNALS:
    void lineClicked(int line);
    void markClicked(int line);

protected:
    void resizeEvent(QResizeEvent* e) override;
    void paintEvent(QPaintEvent* e) override;
    bool event(QEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;

private:
    friend class LineArea;
    void updateMargins();
    void updateArea(const QRect& rect, int dy);
    void refreshSelections();
    QWidget* lineArea_;
    int errorLine_ = 0;
    QList<LineMark> marks_;
    QMap<int, QColor> tints_;
    QList<int> highlighted_;
    int foldFirst_ = 0, foldLast_ = 0;
    bool folded_ = false;
    QString foldLabel_;
};

} // namespace fl::viz
