#include "viz/code_view.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolTip>

namespace fl::viz {

namespace {
const QColor kBreak("#d32f2f");
const QColor kRecompile("#f0a000");
} // namespace

class LineArea : public QWidget {
public:
    explicit LineArea(CodeView* v) : QWidget(v), view_(v) { setMouseTracking(true); }
    QSize sizeHint() const override { return QSize(view_->lineNumberAreaWidth(), 0); }

protected:
    void paintEvent(QPaintEvent* e) override { view_->paintLineNumbers(e); }
    void mousePressEvent(QMouseEvent* e) override {
        int line = view_->lineAt(QPoint(0, e->position().toPoint().y()));
        if (line > 0) Q_EMIT view_->markClicked(line);
    }
    bool event(QEvent* e) override {
        if (e->type() == QEvent::ToolTip) {
            auto* he = static_cast<QHelpEvent*>(e);
            QString tip = view_->markTooltip(view_->lineAt(QPoint(0, he->pos().y())));
            if (tip.isEmpty()) QToolTip::hideText();
            else QToolTip::showText(he->globalPos(), tip, this);
            return true;
        }
        return QWidget::event(e);
    }

private:
    CodeView* view_;
};

CodeView::CodeView(QWidget* parent) : QPlainTextEdit(parent), lineArea_(new LineArea(this)) {
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setMouseTracking(true);
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateMargins(); });
    connect(this, &QPlainTextEdit::updateRequest, this, &CodeView::updateArea);
    updateMargins();
}

int CodeView::lineNumberAreaWidth() const {
    int digits = 1;
    for (int n = std::max(1, blockCount()); n >= 10; n /= 10) ++digits;
    return 22 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(3, digits);
}

void CodeView::updateMargins() { setViewportMargins(lineNumberAreaWidth(), 0, 0, 0); }

void CodeView::updateArea(const QRect& rect, int dy) {
    if (dy) lineArea_->scroll(0, dy);
    else lineArea_->update(0, rect.y(), lineArea_->width(), rect.height());
}

void CodeView::resizeEvent(QResizeEvent* e) {
    QPlainTextEdit::resizeEvent(e);
    QRect cr = contentsRect();
    lineArea_->setGeometry(QRect(cr.left(), cr.top(), lineNumberAreaWidth(), cr.height()));
}

int CodeView::lineAt(const QPoint& viewportPos) const {
    QTextCursor c = cursorForPosition(QPoint(0, viewportPos.y()));
    QTextBlock b = c.block();
    if (!b.isValid()) return 0;
    QRectF r = blockBoundingGeometry(b).translated(contentOffset());
    if (viewportPos.y() < r.top() || viewportPos.y() > r.bottom()) return 0;
    return b.blockNumber() + 1;
}

QRect CodeView::gutterRectOfLine(int line) const {
    QTextBlock b = document()->findBlockByNumber(line - 1);
    if (!b.isValid()) return {};
    QRectF r = blockBoundingGeometry(b).translated(contentOffset());
    return QRect(contentsRect().left(), contentsRect().top() + int(r.top()), lineNumberAreaWidth(), int(r.height()));
}

QString CodeView::markTooltip(int line) const {
    QStringList parts;
    for (const LineMark& m : marks_)
        if (m.line == line) parts << m.tooltip;
    return parts.join("<hr>");
}

void CodeView::paintLineNumbers(QPaintEvent* event) {
    QPainter p(lineArea_);
    p.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    QTextBlock block = firstVisibleBlock();
    int number = block.blockNumber() + 1;
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + qRound(blockBoundingRect(block).height());
    QMap<int, int> kinds; // line -> bit 1 break, bit 2 recompile, bit 4 a call into a break
    for (const LineMark& m : marks_) kinds[m.line] |= m.kind == LineMark::Break ? 1 : m.kind == LineMark::Recompile ? 2 : 4;
    p.setRenderHint(QPainter::Antialiasing);
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            if (number == errorLine_) p.fillRect(0, top, 4, bottom - top, kBreak);
            if (int k = kinds.value(number)) {
                int d = std::min(10, bottom - top - 4);
                QRect dot(5, top + (bottom - top - d) / 2, d, d);
                p.setPen(Qt::NoPen);
                if (k & 2) { p.setBrush(kRecompile); p.drawEllipse(dot.translated(k & 5 ? 4 : 0, 0)); }
                if (k & 1) { p.setBrush(kBreak); p.drawEllipse(dot); }
                else if (k & 4) { // a ring: the graph ends at this call, the break is further in
                    p.setPen(QPen(kBreak, 2.2));
                    p.setBrush(palette().color(QPalette::AlternateBase));
                    p.drawEllipse(QRectF(dot).adjusted(1, 1, -1, -1));
                    p.setPen(Qt::NoPen);
                }
            }
            if (highlighted_.contains(number)) p.fillRect(lineArea_->width() - 3, top, 3, bottom - top, palette().color(QPalette::Highlight));
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(0, top, lineArea_->width() - 6, fontMetrics().height(), Qt::AlignRight, QString::number(number));
        }
        block = block.next();
        top = bottom;
        bottom = top + qRound(blockBoundingRect(block).height());
        ++number;
    }
}

void CodeView::setErrorLine(int line) {
    errorLine_ = line;
    refreshSelections();
    lineArea_->update();
}

void CodeView::setMarks(const QList<LineMark>& marks) {
    marks_ = marks;
    refreshSelections();
    lineArea_->update();
}

void CodeView::setLineTints(const QMap<int, QColor>& tints) {
    tints_ = tints;
    refreshSelections();
}

void CodeView::setHighlightedLines(const QList<int>& lines) {
    highlighted_ = lines;
    refreshSelections();
    lineArea_->update();
    if (!lines.isEmpty()) {
        if (folded_ && lines.first() > foldFirst_ && lines.first() <= foldLast_) setFolded(false);
        QTextBlock b = document()->findBlockByNumber(lines.first() - 1);
        if (b.isValid()) {
            QTextCursor c(b);
            setTextCursor(c);
            ensureCursorVisible();
        }
    }
}

void CodeView::refreshSelections() {
    QList<QTextEdit::ExtraSelection> sels;
    auto lineSel = [&](int line, auto&& setFormat) {
        QTextBlock b = document()->findBlockByNumber(line - 1);
        if (!b.isValid()) return;
        QTextEdit::ExtraSelection s;
        setFormat(s.format);
        s.cursor = QTextCursor(b);
        sels.append(s);
    };
    for (auto it = tints_.begin(); it != tints_.end(); ++it) {
        QColor c = it.value();
        c.setAlpha(40);
        lineSel(it.key(), [&](QTextCharFormat& f) { f.setBackground(c); f.setProperty(QTextFormat::FullWidthSelection, true); });
    }
    QColor hl = palette().color(QPalette::Highlight);
    hl.setAlpha(70);
    for (int l : highlighted_)
        lineSel(l, [&](QTextCharFormat& f) { f.setBackground(hl); f.setProperty(QTextFormat::FullWidthSelection, true); });
    if (errorLine_ > 0)
        lineSel(errorLine_, [](QTextCharFormat& f) { f.setBackground(QColor(211, 47, 47, 40)); f.setProperty(QTextFormat::FullWidthSelection, true); });
    // Marks: a wavy underline under the line's text (not the indentation).
    for (const LineMark& m : marks_) {
        QTextBlock b = document()->findBlockByNumber(m.line - 1);
        if (!b.isValid()) continue;
        QString text = b.text();
        int start = 0;
        while (start < text.size() && text[start].isSpace()) ++start;
        QTextEdit::ExtraSelection s;
        s.cursor = QTextCursor(b);
        s.cursor.setPosition(b.position() + start);
        s.cursor.setPosition(b.position() + text.size(), QTextCursor::KeepAnchor);
        s.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        s.format.setUnderlineColor(m.kind == LineMark::Recompile ? kRecompile : kBreak);
        if (m.kind == LineMark::BreakCall) s.format.setUnderlineStyle(QTextCharFormat::DashUnderline);
        sels.append(s);
    }
    setExtraSelections(sels);
}

bool CodeView::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        QPoint vp = viewport()->mapFrom(this, he->pos());
        QString tip = markTooltip(lineAt(vp));
        if (tip.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(he->globalPos(), tip, this);
        return true;
    }
    return QPlainTextEdit::event(e);
}

void CodeView::mouseReleaseEvent(QMouseEvent* e) {
    QPlainTextEdit::mouseReleaseEvent(e);
    if (e->button() == Qt::LeftButton && !textCursor().hasSelection()) {
        int line = lineAt(e->position().toPoint());
        if (line > 0 && line == foldFirst_) setFolded(!folded_);
        if (line > 0) Q_EMIT lineClicked(line);
    }
}

void CodeView::setFoldRegion(int first, int last, const QString& label) {
    if (foldFirst_ > 0) setFolded(false);
    foldFirst_ = first > 0 && last > first ? first : 0;
    foldLast_ = foldFirst_ ? last : 0;
    foldLabel_ = label;
    folded_ = false;
}

void CodeView::setFolded(bool folded) {
    if (!foldFirst_) return;
    folded_ = folded;
    QTextBlock b = document()->findBlockByNumber(foldFirst_); // line first + 1
    for (int line = foldFirst_ + 1; b.isValid() && line <= foldLast_; ++line, b = b.next()) b.setVisible(!folded);
    QTextBlock first = document()->findBlockByNumber(foldFirst_ - 1);
    int end = b.isValid() ? b.position() : document()->characterCount() - 1;
    document()->markContentsDirty(first.position(), end - first.position());
    viewport()->update();
    lineArea_->update();
}

bool CodeView::isLineVisible(int line) const {
    QTextBlock b = document()->findBlockByNumber(line - 1);
    return b.isValid() && b.isVisible();
}

void CodeView::paintEvent(QPaintEvent* e) {
    QPlainTextEdit::paintEvent(e);
    if (!foldFirst_) return;
    // the fold's line says what it holds and how to open or close it
    QTextBlock b = document()->findBlockByNumber(foldFirst_ - 1);
    if (!b.isValid()) return;
    QRectF r = blockBoundingGeometry(b).translated(contentOffset());
    if (r.bottom() < 0 || r.top() > viewport()->height()) return;
    QPainter p(viewport());
    QFontMetrics fm(font());
    QString text = folded_ ? QString("  ▸ … %1 (click to unfold)").arg(foldLabel_) : QString("  ▾ %1 (click to fold)").arg(foldLabel_);
    qreal x = r.left() + document()->documentMargin() + fm.horizontalAdvance(b.text()) + fm.horizontalAdvance(' ') * 2;
    QRectF box(x, r.top() + 1, fm.horizontalAdvance(text) + 8, r.height() - 2);
    QColor bg = palette().color(QPalette::AlternateBase);
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(bg);
    p.drawRoundedRect(box, 3, 3);
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(box.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
}

} // namespace fl::viz
