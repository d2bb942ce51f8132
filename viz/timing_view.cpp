#include "viz/timing_view.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace fl::viz {

namespace {

constexpr int kRowHeight = 22;
constexpr int kAxisHeight = 20;

QColor colorFor(const QString& category, QString name) {
    if (category == "compile") return QColor(220, 220, 230);
    if (category == "graph" && name.startsWith("backward")) return QColor(215, 150, 110); // a backward() run
    // compiled training's phases are named for their graph: "training forward lower", "backward jit frontend"
    for (const char* graph : {"training forward ", "backward "})
        if (name.startsWith(graph)) name = name.mid(int(qstrlen(graph)));
    if (category == "call") return QColor(120, 170, 230);
    if (category == "guard") return QColor(240, 190, 90);
    if (category == "graph") return QColor(150, 200, 150);
    if (category == "kernel") return QColor(90, 160, 90);
    if (category == "extern") return QColor(160, 120, 200);
    if (category == "fallback") return QColor(200, 120, 120);
    if (name.startsWith("jit")) return QColor(230, 140, 80);
    if (name == "trace") return QColor(100, 150, 220);
    if (name == "first run") return QColor(90, 180, 120);
    if (name.startsWith("load") || name.startsWith("cache")) return QColor(180, 180, 100);
    if (name == "lower" || name == "fuse" || name == "codegen") return QColor(170, 130, 210);
    return QColor(160, 170, 190);
}

QString msText(double ms) {
    if (ms >= 100) return QString::number(ms, 'f', 1) + " ms";
    if (ms >= 1) return QString::number(ms, 'f', 3) + " ms";
    return QString::number(ms * 1000, 'f', 2) + " us";
}

QString argsText(const std::vector<std::pair<std::string, std::string>>& args) {
    QString s;
    for (auto& [k, v] : args) {
        if (v.empty()) continue;
        QString val = QString::fromStdString(v);
        if (val.size() > 300) val = val.left(300) + "...";
        s += "\n" + QString::fromStdString(k) + ": " + val;
    }
    return s;
}

} // namespace

// ------------------------------------------------------------------ Timeline
Timeline::Timeline(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumHeight(120);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

QSize Timeline::sizeHint() const { return QSize(800, kAxisHeight + kRowHeight * std::max<int>(4, int(rows_.size())) + 8); }

void Timeline::setProfile(const profiler::Profile& p) {
    emptyText_ = "No profile yet: run a script with the profiler.";
    rows_.clear();
    items_.clear();
    auto rowOf = [&](const QString& track) {
        int i = int(rows_.indexOf(track));
        if (i >= 0) return i;
        rows_.push_back(track);
        return int(rows_.size()) - 1;
    };
    rowOf("script");
    for (auto& c : p.compiles) { // each compile id, then its training forward's and backward's compiles
        QString id = QString::fromStdString(c.id);
        rowOf("compile " + id);
        for (auto& s : p.spans)
            if (s.track == "training " + c.id) { rowOf("training " + id); break; }
        for (auto& s : p.spans)
            if (s.track == "backward " + c.id) { rowOf("backward " + id); break; }
    }
    for (auto& s : p.spans) // backward() runs right under the calls whose outputs they differentiate
        if (s.track == "runtime: backward") {
            rowOf("runtime");
            rowOf("runtime: backward");
            break;
        }
    double end = 0;
    for (auto& s : p.spans) {
        QString track = QString::fromStdString(s.track);
        Item it;
        it.row = rowOf(track);
        it.start = s.startMs;
        it.ms = s.ms;
        it.name = QString::fromStdString(s.name);
        it.category = QString::fromStdString(s.category);
        it.details = it.name + "  (" + track + ")\nstart " + msText(s.startMs) + ", duration " + msText(s.ms) + argsText(s.args);
        items_.push_back(it);
        end = std::max(end, s.startMs + s.ms);
    }
    for (auto& i : p.instants) {
        Item it;
        it.row = rowOf("compile " + QString::fromStdString(i.id));
        it.start = i.atMs;
        it.instant = true;
        it.isBreak = i.isBreak;
        it.name = QString::fromStdString(i.kind);
        it.category = "instant";
        it.details = it.name + " [" + QString::fromStdString(i.id) + "] at " + QString::fromStdString(i.file) + ":" + QString::number(i.line) + "\n" +
                     QString::fromStdString(i.reason);
        items_.push_back(it);
        end = std::max(end, i.atMs);
    }
    // wide spans first, so the phases and kernels inside them are drawn on top
    std::stable_sort(items_.begin(), items_.end(), [](const Item& a, const Item& b) { return a.ms > b.ms; });
    total_ = std::max(end, 1e-3);
    from_ = 0;
    to_ = total_;
    // every track gets its row: the scroll area around the timeline scrolls to it
    setMinimumHeight(std::max(120, sizeHint().height()));
    updateGeometry();
    update();
}

void Timeline::setView(double from, double to) {
    double span = std::max(to - from, 1e-6);
    span = std::min(span, total_ * 1.5);
    from = std::clamp(from, -0.25 * total_, total_);
    from_ = from;
    to_ = from + span;
    update();
}

void Timeline::zoom(double factor, double atMs) {
    double span = (to_ - from_) / factor;
    double rel = (atMs - from_) / std::max(to_ - from_, 1e-9);
    setView(atMs - rel * span, atMs - rel * span + span);
}

double Timeline::xOf(double ms) const {
    double w = std::max(1, width() - labelWidth() - 4);
    return labelWidth() + (ms - from_) / std::max(to_ - from_, 1e-9) * w;
}

double Timeline::msOf(double x) const {
    double w = std::max(1, width() - labelWidth() - 4);
    return from_ + (x - labelWidth()) / w * (to_ - from_);
}

int Timeline::rowTop(int row) const { return kAxisHeight + row * kRowHeight; }

void Timeline::paintEvent(QPaintEvent*) {
    QPainter g(this);
    g.fillRect(rect(), palette().base());
    const int lw = labelWidth();
    // axis: about 8 ticks at round values
    double span = to_ - from_;
    double step = std::pow(10.0, std::floor(std::log10(std::max(span / 8, 1e-9))));
    if (span / step > 16) step *= 5;
    else if (span / step > 8) step *= 2;
    g.setPen(palette().color(QPalette::Mid));
    for (double t = std::ceil(from_ / step) * step; t <= to_; t += step) {
        int x = int(xOf(t));
        g.drawLine(x, kAxisHeight - 4, x, height());
        g.setPen(palette().color(QPalette::Text));
        g.drawText(x + 2, kAxisHeight - 6, msText(t));
        g.setPen(palette().color(QPalette::Mid));
    }
    for (int r = 0; r < int(rows_.size()); ++r) {
        int y = rowTop(r);
        if (r % 2) g.fillRect(QRect(0, y, width(), kRowHeight), palette().alternateBase());
    }
    g.setClipRect(QRect(lw, 0, width() - lw, height()));
    QFontMetrics fm(font());
    for (auto& it : items_) {
        int y = rowTop(it.row);
        if (it.instant) {
            int x = int(xOf(it.start));
            QPolygon tri;
            tri << QPoint(x, y + 2) << QPoint(x - 5, y + kRowHeight - 3) << QPoint(x + 5, y + kRowHeight - 3);
            g.setPen(Qt::black);
            g.setBrush(it.isBreak ? QColor(220, 60, 60) : QColor(230, 150, 30));
            g.drawPolygon(tri);
            continue;
        }
        double x0 = xOf(it.start), x1 = xOf(it.start + it.ms);
        if (x1 < lw || x0 > width()) continue;
        QRectF box(x0, y + 2, std::max(1.0, x1 - x0), kRowHeight - 4);
        if (it.category == "compile") box.adjust(0, -1, 0, 1);
        g.setPen(it.category == "compile" ? QPen(QColor(90, 90, 110)) : Qt::NoPen);
        g.setBrush(colorFor(it.category, it.name));
        g.drawRect(box);
        if (box.width() > 30 && it.category != "compile") {
            g.setPen(Qt::black);
            g.drawText(box.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(it.name, Qt::ElideRight, int(box.width()) - 5));
        }
    }
    g.setClipping(false);
    g.fillRect(QRect(0, 0, lw, height()), palette().window());
    g.setPen(palette().color(QPalette::WindowText));
    for (int r = 0; r < int(rows_.size()); ++r)
        g.drawText(QRect(4, rowTop(r), lw - 8, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(rows_[r], Qt::ElideMiddle, lw - 8));
    if (items_.empty()) g.drawText(rect(), Qt::AlignCenter, emptyText_);
}

const Timeline::Item* Timeline::itemAt(const QPoint& pos) const {
    if (pos.x() < labelWidth() || pos.y() < kAxisHeight) return nullptr;
    int row = (pos.y() - kAxisHeight) / kRowHeight;
    const Item* best = nullptr;
    for (auto& it : items_) {
        if (it.row != row) continue;
        double x0 = xOf(it.start), x1 = xOf(it.start + it.ms);
        bool hit = it.instant ? std::abs(pos.x() - x0) <= 5 : pos.x() >= x0 - 1 && pos.x() <= std::max(x1, x0 + 1) + 1;
        if (!hit) continue;
        // the narrowest span under the cursor (a phase inside its compile id; instants first)
        if (!best || it.instant || (!best->instant && it.ms < best->ms)) best = &it;
    }
    return best;
}

QString Timeline::detailsAt(const QPoint& pos) const {
    const Item* it = itemAt(pos);
    return it ? it->details : QString();
}

void Timeline::wheelEvent(QWheelEvent* e) {
    double at = msOf(e->position().x());
    zoom(e->angleDelta().y() > 0 ? 1.25 : 0.8, at);
    e->accept();
}

void Timeline::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    dragging_ = true;
    dragFrom_ = e->pos();
    dragStart_ = from_;
    setCursor(Qt::ClosedHandCursor);
}

void Timeline::mouseMoveEvent(QMouseEvent* e) {
    if (dragging_) {
        double w = std::max(1, width() - labelWidth() - 4);
        double dms = double(e->pos().x() - dragFrom_.x()) / w * (to_ - from_);
        double span = to_ - from_;
        setView(dragStart_ - dms, dragStart_ - dms + span);
        return;
    }
    QString d = detailsAt(e->pos());
    if (d.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(e->globalPosition().toPoint(), d, this);
}

void Timeline::mouseReleaseEvent(QMouseEvent*) {
    dragging_ = false;
    unsetCursor();
}

void Timeline::mouseDoubleClickEvent(QMouseEvent*) { setView(0, total_); } // back to everything

// ------------------------------------------------------------------ TimingView
TimingView::TimingView(QWidget* parent) : QWidget(parent) {
    timeline_ = new Timeline(this);
    timeline_->setObjectName("timingTimeline");
    calls_ = new QComboBox(this);
    calls_->setObjectName("timingCalls");
    calls_->setToolTip("The compiled call whose cached-call breakdown and kernels are shown");
    summary_ = new QLabel("No profile yet.", this);
    summary_->setObjectName("timingSummary");
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_ = new QTableWidget(0, 6, this);
    table_->setObjectName("timingKernels");
    table_->setHorizontalHeaderLabels({"kernel", "count", "total ms", "mean ms", "share", "lines"});
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSortingEnabled(true);
    export_ = new QPushButton("Export trace...", this);
    export_->setObjectName("timingExport");
    export_->setToolTip("Write the profile as Trace Event JSON (opens in Perfetto and chrome://tracing)");
    export_->setEnabled(false);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel("Call:", this));
    top->addWidget(calls_, 1);
    top->addWidget(export_);
    auto* bottom = new QWidget(this);
    auto* bl = new QVBoxLayout(bottom);
    bl->setContentsMargins(0, 0, 0, 0);
    bl->addLayout(top);
    bl->addWidget(summary_);
    bl->addWidget(table_, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    // the tracks scroll: a profile with more tracks than the pane is tall keeps them all (they
    // were cut off after about the seventh)
    auto* scroll = new QScrollArea(split);
    scroll->setObjectName("timingTimelineScroll");
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(timeline_);
    split->addWidget(scroll);
    split->addWidget(bottom);
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(2, 2, 2, 2);
    l->addWidget(split);
    connect(calls_, qOverload<int>(&QComboBox::currentIndexChanged), this, &TimingView::showCall);
    connect(export_, &QPushButton::clicked, this, &TimingView::exportClicked);
}

void TimingView::setProfile(const profiler::Profile& p) {
    profile_ = p;
    timeline_->setProfile(p);
    calls_->blockSignals(true);
    calls_->clear();
    for (auto& c : p.calls)
        calls_->addItem(QString::fromStdString(c.function) + "  (" + QString::fromStdString(c.file) + ":" + QString::number(c.line) + ")  " +
                        QString::fromStdString(c.inputs).left(80));
    calls_->blockSignals(false);
    export_->setEnabled(true);
    showCall(p.calls.empty() ? -1 : 0);
}

void TimingView::setPending(const QString& why) {
    setProfile(profiler::Profile{});
    timeline_->setEmptyText(why + ": the timeline comes after the run.");
    export_->setEnabled(false);
    summary_->setText("<b>" + why.toHtmlEscaped() + "</b><br>The cached and eager calls are timed when the run has compiled them.");
}

QString TimingView::summaryText() const { return summary_->text(); }

void TimingView::showCall(int index) {
    table_->setSortingEnabled(false);
    table_->setRowCount(0);
    if (index < 0 || index >= int(profile_.calls.size())) {
        summary_->setText(profile_.compiles.empty() ? "No compiled calls in this run." : QString::number(profile_.compiles.size()) + " compile ids; no recorded calls.");
        return;
    }
    const profiler::CallProfile& c = profile_.calls[index];
    QString verdict = c.compileIds.empty() ? QString("no compile of its own") : "pays off after " + QString::fromStdString(c.breakEven());
    QString s = QString("first call %1 ms (compile %2 ms) vs cached %3 ms, eager %4 ms: %5")
                    .arg(c.firstCallMs, 0, 'f', 2)
                    .arg(c.compileMs, 0, 'f', 2)
                    .arg(c.cachedMs, 0, 'f', 4)
                    .arg(c.eagerMs, 0, 'f', 4)
                    .arg(verdict);
    if (c.training && c.backwardRuns > 0)
        s += QString("\nbackward (%1): cached %2 ms after the call, eager %3 ms; a training step's share: compiled %4 ms, eager %5 ms")
                 .arg(QString::fromStdString(c.backward))
                 .arg(c.backwardMs, 0, 'f', 4)
                 .arg(c.eagerBackwardMs, 0, 'f', 4)
                 .arg(c.cachedMs + c.backwardMs, 0, 'f', 4)
                 .arg(c.eagerMs + c.eagerBackwardMs, 0, 'f', 4);
    if (c.profiledRuns > 0)
        s += QString("\ncached call: guards %1 us, dispatch %2 ms; with kernel timers %3 ms")
                 .arg(c.guardNs * 1e-3, 0, 'f', 2)
                 .arg(c.dispatchMs, 0, 'f', 4)
                 .arg(c.profiledMs, 0, 'f', 4);
    if (!c.note.empty()) s += "\n" + QString::fromStdString(c.note);
    s += QString("\n%1, %2 threads, LibTorch %3").arg(QString::fromStdString(profile_.machine)).arg(profile_.threads).arg(QString::fromStdString(profile_.libtorch));
    summary_->setText(s);
    table_->setRowCount(int(c.kernels.size()));
    for (int r = 0; r < int(c.kernels.size()); ++r) {
        const profiler::KernelTime& k = c.kernels[r];
        QString lines;
        for (int l : k.lines) lines += (lines.isEmpty() ? "" : ", ") + QString::number(l);
        auto num = [](double v) {
            auto* it = new QTableWidgetItem;
            it->setData(Qt::DisplayRole, v);
            it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            return it;
        };
        auto* name = new QTableWidgetItem((k.graph.empty() ? "" : "[" + QString::fromStdString(k.graph) + "] ") + QString::fromStdString(k.name));
        name->setToolTip(QString::fromStdString(k.kind));
        table_->setItem(r, 0, name);
        auto* count = new QTableWidgetItem;
        count->setData(Qt::DisplayRole, k.count);
        table_->setItem(r, 1, count);
        table_->setItem(r, 2, num(std::round(k.totalMs * 1e4) / 1e4));
        table_->setItem(r, 3, num(std::round(k.meanMs * 1e4) / 1e4));
        auto* share = new QTableWidgetItem(QString::number(100 * k.share, 'f', 1) + "%");
        share->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(r, 4, share);
        table_->setItem(r, 5, new QTableWidgetItem(lines));
    }
    table_->setSortingEnabled(true);
    table_->sortItems(2, Qt::DescendingOrder); // the costliest first
}

bool TimingView::exportTrace(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        error_ = "cannot write " + path + ": " + f.errorString();
        return false;
    }
    std::string json = profiler::traceJson(profile_);
    if (f.write(json.data(), qint64(json.size())) != qint64(json.size())) {
        error_ = "cannot write " + path + ": " + f.errorString();
        return false;
    }
    error_.clear();
    return true;
}

void TimingView::exportClicked() {
    QString path = QFileDialog::getSaveFileName(this, "Export trace", "trace.json", "Trace Event JSON (*.json)");
    if (path.isEmpty()) return;
    if (!exportTrace(path)) summary_->setText(error_);
}

} // namespace fl::viz
