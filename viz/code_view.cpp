#include "viz/code_view.h"

#include <QFontDatabase>
#include <QPainter>
#include <QTextBlock>

namespace fl::viz {

namespace {
class LineArea : public QWidget {
public:
    explicit LineArea(CodeView* v) : QWidget(v), view_(v) {}
    QSize sizeHint() const override { return QSize(view_->lineNumberAreaWidth(), 0); }

protected:
    void paintEvent(QPaintEvent* e) override { view_->paintLineNumbers(e); }

private:
    CodeView* view_;
};
} // namespace

CodeView::CodeView(QWidget* parent) : QPlainTextEdit(parent), lineArea_(new LineArea(this)) {
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { updateMargins(); });
    connect(this, &QPlainTextEdit::updateRequest, this, &CodeView::updateArea);
    updateMargins();
}

int CodeView::lineNumberAreaWidth() const {
    int digits = 1;
    for (int n = std::max(1, blockCount()); n >= 10; n /= 10) ++digits;
    return 12 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(3, digits);
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

void CodeView::paintLineNumbers(QPaintEvent* event) {
    QPainter p(lineArea_);
    p.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    QTextBlock block = firstVisibleBlock();
    int number = block.blockNumber() + 1;
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + qRound(blockBoundingRect(block).height());
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            if (number == errorLine_) p.fillRect(0, top, 4, bottom - top, QColor("#d32f2f"));
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

void CodeView::refreshSelections() {
    QList<QTextEdit::ExtraSelection> sels;
    if (errorLine_ > 0) {
        QTextBlock b = document()->findBlockByNumber(errorLine_ - 1);
        if (b.isValid()) {
            QTextEdit::ExtraSelection s;
            s.format.setBackground(QColor(211, 47, 47, 40));
            s.format.setProperty(QTextFormat::FullWidthSelection, true);
            s.cursor = QTextCursor(b);
            sels.append(s);
        }
    }
    setExtraSelections(sels);
}

} // namespace fl::viz
