#include "viz/graph_view.h"

#include <QAction>
#include <QApplication>
#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QStyleOptionGraphicsItem>
#include <QTimer>
#include <QToolBar>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <utility>
#include <cmath>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

namespace fl::viz {

namespace {

constexpr int kItemsPerTurn = 250;  // scene items created per event-loop turn
constexpr double kMinScale = 0.002, kMaxScale = 8.0;  // 0.002: a 2,000-node chain still fits

QColor mix(const QColor& a, const QColor& b, double t) {
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

QString qs(const std::string& s) { return QString::fromStdString(s); }

QRectF toRect(const LayoutRect& r) { return QRectF(r.x, r.y, r.width, r.height); }
QPointF toPoint(const LayoutPoint& p) { return QPointF(p.x, p.y); }

} // namespace

// Colours and fonts derived from the palette; items read them when they paint.
struct GraphView::Style {
    bool dark = false;
    QColor background, text, dimText, border, edge, neutralFill, collapsedFill, clusterFill,
        clusterBorder, selection, match, bridge;
    QFont font, smallFont;
    double charWidth = 7, lineHeight = 15;

    void update(const QPalette& pal, const QFont& base) {
        background = pal.color(QPalette::Base);
        text = pal.color(QPalette::Text);
        dark = background.lightness() < 128;
        dimText = mix(background, text, 0.6);
        border = mix(background, text, 0.55);
        edge = mix(background, text, 0.5);
        neutralFill = mix(background, text, 0.06);
        collapsedFill = mix(background, text, 0.16);
        clusterFill = pal.color(QPalette::Highlight);
        clusterFill.setAlpha(dark ? 30 : 18);
        clusterBorder = mix(background, text, 0.3);
        selection = pal.color(QPalette::Highlight);
        match = dark ? QColor(255, 190, 60) : QColor(230, 130, 0);
        bridge = dark ? QColor(206, 147, 216) : QColor(123, 31, 162); // saved for backward: violet, no kernel's fill
        font = base;
        font.setPointSizeF(9);
        smallFont = base;
        smallFont.setPointSizeF(8);
        QFontMetricsF fm(font);
        // Digits and brackets dominate shapes ("f32[32, 256]"): size boxes by them, not by 'i'.
        charWidth = std::max(fm.averageCharWidth(), fm.horizontalAdvance(QStringLiteral("f32[0, 0]")) / 9);
        lineHeight = fm.height();
    }
};

namespace {

enum ItemType { NodeType = QGraphicsItem::UserType + 1, EdgeType, ClusterType };

// A node's box as the graph and its legend draw it: the outline tells the kind (thick round:
// input, dotted: parameter, double border: library call, dashed: runs eagerly, bold: output, a
// stack of cards: a collapsed module), the fill its kernel. Returns the corner radius.
double paintNodeBox(QPainter* p, const QRectF& r, GraphNodeData::Kind kind, bool collapsed, const QColor& fill, const GraphView::Style& st) {
    using Kind = GraphNodeData::Kind;
    QPen pen(st.border, 1.2);
    double radius = 6;
    if (collapsed) {
        p->setPen(QPen(st.border, 1));
        p->setBrush(st.collapsedFill.darker(108));
        p->drawRoundedRect(r.translated(4, 4), 4, 4);
        pen.setWidthF(1.6);
        radius = 4;
    } else {
        switch (kind) {
        case Kind::Input: pen.setWidthF(2); radius = r.height() / 2; break;
        case Kind::Parameter: pen.setStyle(Qt::DotLine); radius = r.height() / 2; break;
        case Kind::Extern: pen.setWidthF(2.2); radius = 1.5; break;
        case Kind::Fallback: pen.setStyle(Qt::DashLine); pen.setWidthF(1.6); break;
        case Kind::Output: pen.setColor(st.text); pen.setWidthF(2.5); radius = r.height() / 2; break;
        case Kind::Op: break;
        case Kind::Saved: pen.setColor(st.bridge); pen.setWidthF(3); radius = r.height() / 2; break;
        case Kind::Recomputed: pen.setColor(st.bridge); pen.setStyle(Qt::DashDotLine); pen.setWidthF(2); break;
        }
    }
    p->setPen(pen);
    p->setBrush(fill);
    p->drawRoundedRect(r, radius, radius);
    if (!collapsed && kind == Kind::Extern) {  // library call: a double border
        p->setPen(QPen(st.border, 0.8));
        p->setBrush(Qt::NoBrush);
        p->drawRect(r.adjusted(3, 3, -3, -3));
    }
    return radius;
}

// One box: a graph node or a collapsed module.
class NodeItem : public QGraphicsItem {
public:
    NodeItem(const GraphView::Style* style, int box, QRectF rect, GraphNodeData::Kind kind, bool collapsed,
             QString title, QString subtitle)
        : style_(style), box_(box), rect_(rect), kind_(kind), collapsed_(collapsed) {
        const double room = rect.width() - 10;
        title_ = QFontMetricsF(style->font).elidedText(title, Qt::ElideMiddle, room);
        subtitle_ = QFontMetricsF(style->smallFont).elidedText(subtitle, Qt::ElideRight, room);
        setZValue(10);
    }
    int type() const override { return NodeType; }
    int box() const { return box_; }
    bool isCollapsedModule() const { return collapsed_; }
    QRectF rect() const { return rect_; }
    QColor fill() const { return fill_; }
    GraphNodeData::Kind kind() const { return kind_; }
    void setKind(GraphNodeData::Kind k) {
        if (k == kind_) return;
        kind_ = k;
        update();
    }
    void setFill(const QColor& c) {
        if (c == fill_) return;
        fill_ = c;
        update();
    }
    void setMarks(bool selected, bool matched) {
        if (selected == selected_ && matched == matched_) return;
        selected_ = selected;
        matched_ = matched;
        update();
    }
    bool isMarked() const { return selected_ || matched_; }
    QRectF boundingRect() const override { return rect_.adjusted(-6, -6, 6, 6); }

    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) override {
        const double lod = option->levelOfDetailFromTransform(p->worldTransform());
        const QRectF r = rect_;
        if (lod < 0.25) {  // far out: a plain block is all that shows
            p->fillRect(r, isMarked() ? (selected_ ? style_->selection : style_->match) : fill_);
            return;
        }
        const double radius = paintNodeBox(p, r, kind_, collapsed_, fill_, *style_);
        if (isMarked()) {
            p->setBrush(Qt::NoBrush);
            p->setPen(QPen(selected_ ? style_->selection : style_->match, selected_ ? 3.5 : 2.5));
            p->drawRoundedRect(r.adjusted(-3, -3, 3, 3), radius + 2, radius + 2);
        }
        if (lod < 0.45) return;  // text would be a few pixels high
        const QRectF top(r.x() + 4, r.y() + 4, r.width() - 8, r.height() / 2 - 3);
        const QRectF bottom(r.x() + 4, r.center().y() + 1, r.width() - 8, r.height() / 2 - 5);
        p->setPen(style_->text);
        QFont f = style_->font;
        f.setBold(collapsed_);
        p->setFont(f);
        p->drawText(top, Qt::AlignCenter, title_);
        p->setPen(style_->dimText);
        p->setFont(style_->smallFont);
        p->drawText(bottom, Qt::AlignCenter, subtitle_);
    }

private:
    const GraphView::Style* style_;
    int box_;
    QRectF rect_;
    GraphNodeData::Kind kind_;
    bool collapsed_;
    QString title_, subtitle_;
    QColor fill_;
    bool selected_ = false, matched_ = false;
};

// An edge: dot's Bezier path and an arrowhead at the target.
class EdgeItem : public QGraphicsItem {
public:
    EdgeItem(const GraphView::Style* style, const LayoutEdge& e, const QRectF& from, const QRectF& to)
        : style_(style) {
        QPointF end;
        if (e.path.size() >= 4) {
            path_.moveTo(toPoint(e.path[0]));
            for (size_t k = 1; k + 2 < e.path.size(); k += 3)
                path_.cubicTo(toPoint(e.path[k]), toPoint(e.path[k + 1]), toPoint(e.path[k + 2]));
            end = toPoint(e.path.back());
        } else {  // no route from Graphviz: a straight line between the boxes
            path_.moveTo(from.center().x(), from.bottom());
            path_.lineTo(to.center().x(), to.top());
            end = path_.currentPosition();
        }
        // The arrowhead runs from the path's end to dot's arrow tip, or ends the path itself.
        QPointF tip = e.hasArrow ? toPoint(e.arrowTip) : end;
        QPointF back = e.hasArrow ? end : path_.pointAtPercent(0.97);
        QPointF d = tip - back;
        double len = std::hypot(d.x(), d.y());
        if (len < 1e-6) d = QPointF(0, 1), len = 1;
        d /= len;
        const double length = std::max(len, 6.0), half = 3.5;
        QPointF base = tip - d * length, normal(-d.y(), d.x());
        arrow_ << tip << base + normal * half << base - normal * half;
        bounds_ = path_.controlPointRect().united(arrow_.boundingRect()).adjusted(-2, -2, 2, 2);
        setZValue(5);
    }
    int type() const override { return EdgeType; }
    QRectF boundingRect() const override { return bounds_; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        p->setPen(QPen(style_->edge, 1.1));
        p->setBrush(Qt::NoBrush);
        p->drawPath(path_);
        p->setPen(Qt::NoPen);
        p->setBrush(style_->edge);
        p->drawPolygon(arrow_);
    }

private:
    const GraphView::Style* style_;
    QPainterPath path_;
    QPolygonF arrow_;
    QRectF bounds_;
};

// A module: a translucent labelled box behind its nodes; inner modules stack on top.
class ClusterItem : public QGraphicsItem {
public:
    ClusterItem(const GraphView::Style* style, const LayoutCluster& c)
        : style_(style), rect_(toRect(c.rect)), module_(c.module) {
        label_ = QFontMetricsF(style->smallFont).elidedText(qs(c.module), Qt::ElideLeft, rect_.width() - 12);
        setZValue(-100 + c.depth);
    }
    int type() const override { return ClusterType; }
    const std::string& module() const { return module_; }
    QRectF boundingRect() const override { return rect_.adjusted(-1, -1, 1, 1); }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) override {
        p->setPen(QPen(style_->clusterBorder, 1));
        p->setBrush(style_->clusterFill);
        p->drawRoundedRect(rect_, 8, 8);
        if (option->levelOfDetailFromTransform(p->worldTransform()) < 0.45) return;
        p->setPen(style_->dimText);
        p->setFont(style_->smallFont);
        p->drawText(rect_.adjusted(8, 3, -4, 0), Qt::AlignLeft | Qt::AlignTop, label_);
    }

private:
    const GraphView::Style* style_;
    QRectF rect_;
    std::string module_;
    QString label_;
};

} // namespace

// ---- the worker thread --------------------------------------------------------------------------

// Shared by the view and its worker thread. The view's destructor clears `receiver` under
// the mutex, so the worker never posts to a dead view; the worker keeps this alive.
struct GraphView::LayoutJob {
    struct Request {
        int generation = 0;
        std::shared_ptr<const GraphData> graph;
        LayoutOptions options;
    };
    std::mutex mutex;
    GraphView* receiver = nullptr;
    bool running = false;
    std::optional<Request> pending;  // only the newest request waits; older ones are dropped

    void submit(Request request, const std::shared_ptr<LayoutJob>& self) {
        std::lock_guard<std::mutex> lock(mutex);
        pending = std::move(request);
        if (running) return;
        running = true;
        std::thread([self] { self->run(); }).detach();
    }

    void run() {
        for (;;) {
            Request request;
            {
                std::lock_guard<std::mutex> lock(mutex);
                if (!pending || !receiver) {
                    running = false;
                    return;
                }
                request = std::move(*pending);
                pending.reset();
            }
            auto layout = std::make_shared<GraphLayout>();
            try {
                *layout = layoutGraph(*request.graph, request.options);
            } catch (const std::exception& e) {  // never let it escape the thread: that ends the app
                layout->error = std::string("layout failed: ") + e.what();
            }
            std::lock_guard<std::mutex> lock(mutex);
            if (!receiver) {
                running = false;
                return;
            }
            // Queued to the view's thread; dropped by Qt if the view is deleted before delivery.
            GraphView* view = receiver;
            QMetaObject::invokeMethod(
                view, [view, generation = request.generation, layout] { view->onLayoutReady(generation, layout); },
                Qt::QueuedConnection);
        }
    }
};

// The scene of one layout and its items, indexed like the layout.
struct GraphView::Items {
    std::unique_ptr<QGraphicsScene> scene = std::make_unique<QGraphicsScene>();
    std::shared_ptr<GraphLayout> layout;
    std::vector<NodeItem*> boxes;  // per layout box
    std::vector<EdgeItem*> edges;
    std::vector<ClusterItem*> clusters;
    size_t next = 0;  // how far the batched build has got, over clusters, then edges, then boxes
};

// ---- the canvas ---------------------------------------------------------------------------------

// The QGraphicsView: pans by dragging, zooms with Ctrl+wheel, reports clicks that did not drag.
class GraphCanvas : public QGraphicsView {
public:
    explicit GraphCanvas(GraphView* owner) : QGraphicsView(owner), owner_(owner) {
        setDragMode(QGraphicsView::ScrollHandDrag);
        setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
        setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    }

    void zoomBy(double factor) {
        const double scale = transform().m11();
        factor = std::clamp(scale * factor, kMinScale, kMaxScale) / scale;
        this->scale(factor, factor);
    }

protected:
    void mousePressEvent(QMouseEvent* e) override {
        pressPos_ = e->position().toPoint();
        QGraphicsView::mousePressEvent(e);
    }
    void mouseReleaseEvent(QMouseEvent* e) override {
        QGraphicsView::mouseReleaseEvent(e);
        const QPoint pos = e->position().toPoint();
        if (e->button() == Qt::LeftButton && (pos - pressPos_).manhattanLength() < QApplication::startDragDistance())
            owner_->handleClick(mapToScene(pos));
    }
    void mouseDoubleClickEvent(QMouseEvent* e) override {
        if (e->button() == Qt::LeftButton) owner_->handleDoubleClick(mapToScene(e->position().toPoint()));
    }
    void wheelEvent(QWheelEvent* e) override {
        if (!(e->modifiers() & Qt::ControlModifier)) return QGraphicsView::wheelEvent(e);
        zoomBy(std::pow(1.0015, e->angleDelta().y()));
        e->accept();
    }
    bool viewportEvent(QEvent* e) override {
        if (e->type() != QEvent::ToolTip) return QGraphicsView::viewportEvent(e);
        auto* help = static_cast<QHelpEvent*>(e);
        for (QGraphicsItem* item : items(help->pos())) {
            if (item->type() != NodeType) continue;
            QToolTip::showText(help->globalPos(), owner_->boxTooltip(static_cast<NodeItem*>(item)->box()), viewport());
            return true;
        }
        QToolTip::hideText();
        return true;
    }

private:
    GraphView* owner_;
    QPoint pressPos_;
};

// ---- the view -----------------------------------------------------------------------------------

GraphView::GraphView(QWidget* parent)
    : QWidget(parent), graph_(std::make_shared<GraphData>()), job_(std::make_shared<LayoutJob>()),
      layout_(std::make_shared<GraphLayout>()), style_(std::make_unique<Style>()) {
    job_->receiver = this;
    style_->update(palette(), font());

    auto* bar = new QToolBar(this);
    bar->setIconSize(QSize(16, 16));
    auto addAction = [&](const QString& text, const QString& tip, const QKeySequence& key, auto slot) {
        QAction* a = bar->addAction(text, this, slot);
        a->setToolTip(key.isEmpty() ? tip : tip + " (" + key.toString(QKeySequence::NativeText) + ")");
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        return a;
    };
    addAction(tr("Fit"), tr("Fit the whole graph in the view"), QKeySequence(Qt::CTRL | Qt::Key_0), [this] { fit(); });
    addAction(tr("Zoom in"), tr("Zoom in"), QKeySequence::ZoomIn, [this] { zoomIn(); });
    addAction(tr("Zoom out"), tr("Zoom out"), QKeySequence::ZoomOut, [this] { zoomOut(); });
    bar->addSeparator();
    search_ = new QLineEdit(bar);
    search_->setPlaceholderText(tr("find node…"));
    search_->setToolTip(tr("Highlight nodes whose name or op contains the text; Enter goes to the next"));
    search_->setClearButtonEnabled(true);
    search_->setMaximumWidth(220);
    bar->addWidget(search_);
    connect(search_, &QLineEdit::textChanged, this, &GraphView::setSearchText);
    connect(search_, &QLineEdit::returnPressed, this, &GraphView::findNext);
    bar->addSeparator();
    addAction(tr("Expand all"), tr("Expand every module"), QKeySequence(), [this] { expandAll(); });
    addAction(tr("Collapse all"), tr("Collapse the modules two levels deep, e.g. each layer"), QKeySequence(),
              [this] { collapseAll(); });
    status_ = new QLabel(bar);
    status_->setContentsMargins(8, 0, 4, 0);
    status_->setMinimumWidth(status_->fontMetrics().horizontalAdvance(tr("99999 nodes · layout 9999 ms")) + 16);
    bar->addWidget(status_);

    canvas_ = new GraphCanvas(this);
    items_ = std::make_unique<Items>();
    items_->layout = layout_;
    canvas_->setScene(items_->scene.get());
    canvas_->setBackgroundBrush(style_->background);

    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addWidget(bar);
    box->addWidget(canvas_, 1);
}

GraphView::~GraphView() {
    {
        std::lock_guard<std::mutex> lock(job_->mutex);
        job_->receiver = nullptr;
        job_->pending.reset();
    }
    canvas_->setScene(nullptr);  // the scenes go before the canvas does
}

QGraphicsView* GraphView::view() const { return canvas_; }

void GraphView::setGraph(const GraphData& graph) {
    if (graph.nodes.empty() && graph_->nodes.empty() && !layingOut_) return;  // nothing drawn, nothing to draw
    graph_ = std::make_shared<const GraphData>(graph);
    collapsed_ = defaultCollapsedModules(graph);
    groups_.clear();
    selected_.clear();
    searchKeys_.clear();
    searchKeys_.reserve(graph.nodes.size());
    for (const GraphNodeData& node : graph.nodes) searchKeys_.push_back(qs(node.name) + '\n' + qs(node.op));
    setSearchText(searchText_);
    fitWhenDrawn_ = true;
    focusModule_.clear();
    pendingFocus_.clear();
    requestLayout();
}

bool GraphView::updateGraph(const GraphData& graph) {
    const GraphData& old = *graph_;
    if (graph.nodes.size() != old.nodes.size()) return false;
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const GraphNodeData &a = graph.nodes[i], &b = old.nodes[i];
        if (a.name != b.name || a.op != b.op || a.shape != b.shape || a.module != b.module || a.line != b.line || a.inputs != b.inputs ||
            nodeTitle(a) != nodeTitle(b))
            return false;
    }
    graph_ = std::make_shared<const GraphData>(graph);
    for (Items* items : {items_.get(), building_.get()}) {
        if (!items) continue;
        for (NodeItem* item : items->boxes) {
            const int id = items->layout->boxes[size_t(item->box())].nodeId;
            if (id >= 0) item->setKind(graph_->nodes[size_t(id)].kind);
        }
    }
    return true;
}

void GraphView::requestLayout() {
    ++generation_;
    layingOut_ = true;
    building_.reset();  // a half-built scene of an older layout
    status_->setText(tr("laying out…"));
    LayoutOptions options;
    options.collapsed = collapsed_;
    options.charWidth = style_->charWidth;
    options.lineHeight = style_->lineHeight;
    job_->submit({generation_, graph_, std::move(options)}, job_);
}

void GraphView::onLayoutReady(int generation, std::shared_ptr<GraphLayout> layout) {
    if (generation != generation_) return;  // a newer request is on its way
    building_ = std::make_unique<Items>();
    building_->layout = std::move(layout);
    buildBatch(generation);
}

// Creates the next kItemsPerTurn items, then yields to the event loop, so that a big scene
// never holds the UI thread for long.
void GraphView::buildBatch(int generation) {
    if (generation != generation_ || !building_) return;
    Items& b = *building_;
    const GraphLayout& l = *b.layout;
    const size_t total = l.clusters.size() + l.edges.size() + l.boxes.size();
    for (int made = 0; made < kItemsPerTurn && b.next < total; ++made, ++b.next) {
        size_t i = b.next;
        if (i < l.clusters.size()) {
            b.clusters.push_back(new ClusterItem(style_.get(), l.clusters[i]));
            b.scene->addItem(b.clusters.back());
            continue;
        }
        i -= l.clusters.size();
        if (i < l.edges.size()) {
            const LayoutEdge& e = l.edges[i];
            b.edges.push_back(new EdgeItem(style_.get(), e, toRect(l.boxes[e.from].rect), toRect(l.boxes[e.to].rect)));
            b.scene->addItem(b.edges.back());
            continue;
        }
        i -= l.edges.size();
        const LayoutBox& box = l.boxes[i];
        NodeItem* item;
        if (box.nodeId >= 0) {
            const GraphNodeData& node = graph_->nodes[box.nodeId];
            item = new NodeItem(style_.get(), int(i), toRect(box.rect), node.kind, false, qs(nodeTitle(node)),
                                qs(node.shape));
        } else {
            item = new NodeItem(style_.get(), int(i), toRect(box.rect), GraphNodeData::Kind::Op, true,
                                qs(collapsedTitle(box.module, box.memberCount, 0)),
                                qs(collapsedTitle(box.module, box.memberCount, 1)));
        }
        b.boxes.push_back(item);
        b.scene->addItem(item);
    }
    if (b.next < total) {
        QTimer::singleShot(0, this, [this, generation] { buildBatch(generation); });
        return;
    }
    finishBuild();
}

void GraphView::finishBuild() {
    std::unique_ptr<Items> old = std::move(items_);
    items_ = std::move(building_);
    layout_ = items_->layout;
    const QRectF bounds = toRect(layout_->bounds).adjusted(-20, -20, 20, 20);
    items_->scene->setSceneRect(bounds);
    canvas_->setScene(items_->scene.get());
    old.reset();

    recolour();
    applyHighlights();
    if (fitWhenDrawn_) {
        // Open readable: fit when that keeps text legible, else show the top at a readable scale.
        fitWhenDrawn_ = false;
        canvas_->resetTransform();
        const QRectF port = canvas_->viewport()->rect();
        const double scale = std::min(port.width() / bounds.width(), port.height() / bounds.height());
        if (scale >= 0.6) {
            fit();
        } else {
            canvas_->scale(0.6, 0.6);
            canvas_->centerOn(bounds.center().x(), bounds.top() + port.height() / 1.2);
        }
    } else if (!focusModule_.empty()) {
        QRectF r = collapsedRect(focusModule_);
        for (const LayoutCluster& c : layout_->clusters)
            if (c.module == focusModule_) r = toRect(c.rect);
        if (!r.isEmpty()) canvas_->centerOn(r.center());
    }
    focusModule_.clear();
    if (!pendingFocus_.empty()) bringIntoView(std::exchange(pendingFocus_, {}));

    layingOut_ = false;
    if (!layout_->error.empty()) {
        status_->setText(qs(layout_->error));
    } else {
        status_->setText(tr("%1 nodes · layout %2 ms").arg(graph_->nodes.size()).arg(std::lround(layout_->milliseconds)));
    }
    Q_EMIT layoutFinished();
}

void GraphView::setCollapsed(const std::string& module, bool collapsed) {
    if (module.empty() || isCollapsed(module) == collapsed) return;
    if (collapsed) collapsed_.insert(module);
    else collapsed_.erase(module);
    focusModule_ = module;
    requestLayout();
}

void GraphView::expandAll() {
    if (collapsed_.empty()) return;
    collapsed_.clear();
    fitWhenDrawn_ = true;  // the whole drawing changes: open it afresh
    requestLayout();
}

void GraphView::collapseAll() {
    std::set<std::string> all = defaultCollapsedModules(*graph_, true);
    if (all == collapsed_) return;
    collapsed_ = std::move(all);
    fitWhenDrawn_ = true;
    requestLayout();
}

QColor GraphView::groupColor(int group, bool darkPalette) {
    if (group < 0) return {};
    // Golden-angle hue steps: neighbouring group numbers land far apart on the colour wheel.
    // Red is kept for problems (graph breaks): hues within 35 degrees of it are never used.
    const double hue = (35.0 + std::fmod(group * 137.50776405, 360.0) * (290.0 / 360.0)) / 360.0;
    return darkPalette ? QColor::fromHsvF(float(hue), 0.55f, 0.50f) : QColor::fromHsvF(float(hue), 0.38f, 0.98f);
}

void GraphView::setGroups(const std::vector<int>& groupOfNode) {
    groups_ = groupOfNode;
    recolour();
}

void GraphView::recolour() {
    const GraphLayout& l = *items_->layout;
    for (NodeItem* item : items_->boxes) {
        const LayoutBox& box = l.boxes[item->box()];
        int group = box.nodeId >= 0 && box.nodeId < int(groups_.size()) ? groups_[box.nodeId] : -1;
        if (box.nodeId < 0) item->setFill(style_->collapsedFill);
        else if (group < 0) item->setFill(style_->neutralFill);
        else item->setFill(groupColor(group, style_->dark));
    }
}

void GraphView::applyHighlights() {
    const GraphLayout& l = *items_->layout;
    std::vector<char> selected(items_->boxes.size()), matched(items_->boxes.size());
    auto mark = [&](const std::vector<int>& ids, std::vector<char>& flags) {
        for (int id : ids)
            if (id >= 0 && id < int(l.boxOfNode.size()) && l.boxOfNode[id] < int(flags.size()))
                flags[l.boxOfNode[id]] = 1;
    };
    mark(selected_, selected);
    mark(matches_, matched);
    for (NodeItem* item : items_->boxes) item->setMarks(selected[item->box()], matched[item->box()]);
}

void GraphView::selectNodes(const std::vector<int>& ids, const std::vector<int>& focus) {
    selected_.clear();
    for (int id : ids)
        if (id >= 0 && id < int(graph_->nodes.size())) selected_.push_back(id);
    if (selected_.empty()) return applyHighlights();
    std::vector<int> shown;
    for (int id : focus)
        if (id >= 0 && id < int(graph_->nodes.size())) shown.push_back(id);
    if (shown.empty()) shown.push_back(selected_.front());
    bool relayout = false;
    for (int id : selected_) relayout |= expandToShow(id);
    for (int id : shown) relayout |= expandToShow(id);
    if (relayout || layingOut_) {
        pendingFocus_ = shown;  // applied when the new scene is drawn
        return;
    }
    applyHighlights();
    bringIntoView(shown);
}

// Centres on the nodes' boxes; zooms out when they do not fit in the view at the current scale
// (never in: the user's zoom stays when they fit).
void GraphView::bringIntoView(const std::vector<int>& ids) {
    QRectF r;
    for (int id : ids) r = r.united(nodeRect(id));
    if (r.isEmpty()) return;
    r.adjust(-30, -30, 30, 30);
    const QRectF port = canvas_->viewport()->rect();
    const double scale = canvas_->transform().m11();
    const double fits = std::min(port.width() / r.width(), port.height() / r.height());
    if (fits < scale) canvas_->zoomBy(std::max(fits, kMinScale) / scale);
    canvas_->centerOn(r.center());
}

bool GraphView::expandToShow(int id) {
    const std::string owner = collapsedOwner(graph_->nodes[id].module, collapsed_);
    if (owner.empty()) return false;
    // Expand the owner and anything collapsed inside it on the way to the node.
    for (auto it = collapsed_.begin(); it != collapsed_.end();) {
        const std::string& m = *it;
        const std::string& path = graph_->nodes[id].module;
        bool onPath = path == m || path.compare(0, m.size() + 1, m + '.') == 0;
        it = onPath ? collapsed_.erase(it) : std::next(it);
    }
    requestLayout();
    return true;
}


void GraphView::setSearchText(const QString& text) {
    if (search_->text() != text) return search_->setText(text);  // comes back via textChanged
    searchText_ = text;
    matches_.clear();
    matchCursor_ = -1;
    if (!text.isEmpty())
        for (size_t id = 0; id < searchKeys_.size(); ++id)
            if (searchKeys_[id].contains(text, Qt::CaseInsensitive)) matches_.push_back(int(id));
    applyHighlights();
}

void GraphView::findNext() {
    if (matches_.empty()) return;
    matchCursor_ = (matchCursor_ + 1) % int(matches_.size());
    selectNodes({matches_[matchCursor_]});
    Q_EMIT nodeClicked(matches_[matchCursor_]); // as a click: the panes follow, the source line too
}

void GraphView::fit() {
    const QRectF r = items_->scene->sceneRect();
    if (r.isEmpty()) return;
    canvas_->fitInView(r, Qt::KeepAspectRatio);
    const double scale = canvas_->transform().m11();
    if (scale < kMinScale || scale > kMaxScale) canvas_->zoomBy(1.0);  // clamps
}

void GraphView::zoomIn() { canvas_->zoomBy(1.25); }
void GraphView::zoomOut() { canvas_->zoomBy(1 / 1.25); }

void GraphView::handleClick(const QPointF& scenePos) {
    for (QGraphicsItem* item : items_->scene->items(scenePos)) {
        if (item->type() != NodeType) continue;
        const LayoutBox& box = items_->layout->boxes[static_cast<NodeItem*>(item)->box()];
        if (box.nodeId < 0) return;  // a collapsed module: double-click expands it
        selected_ = {box.nodeId};
        applyHighlights();
        Q_EMIT nodeClicked(box.nodeId);
        return;
    }
    if (!selected_.empty()) {
        selected_.clear();
        applyHighlights();
    }
}

void GraphView::handleDoubleClick(const QPointF& scenePos) {
    // A collapsed box expands; a module's frame (not a node in it) collapses the innermost one.
    const ClusterItem* innermost = nullptr;
    for (QGraphicsItem* item : items_->scene->items(scenePos)) {
        if (item->type() == NodeType) {
            const LayoutBox& box = items_->layout->boxes[static_cast<NodeItem*>(item)->box()];
            if (box.nodeId < 0) setCollapsed(box.module, false);
            return;
        }
        if (item->type() == ClusterType && !innermost) innermost = static_cast<ClusterItem*>(item);
    }
    if (innermost) setCollapsed(innermost->module(), true);
}

QString GraphView::nodeTooltip(int id) const {
    if (id < 0 || id >= int(graph_->nodes.size())) return {};
    const GraphNodeData& n = graph_->nodes[id];
    QStringList lines{qs(n.name), tr("op: %1").arg(qs(n.op)), tr("shape: %1").arg(qs(n.shape)),
                      tr("module: %1").arg(n.module.empty() ? tr("(top level)") : qs(n.module))};
    if (n.line > 0) lines << tr("line: %1").arg(n.line);
    const int group = id < int(groups_.size()) ? groups_[id] : -1;
    lines << (group >= 0 ? tr("group: %1").arg(group) : tr("group: none"));
    return lines.join('\n');
}

QString GraphView::boxTooltip(int box) const {
    const LayoutBox& b = items_->layout->boxes[box];
    if (b.nodeId >= 0) return nodeTooltip(b.nodeId);
    return tr("%1\n%2 nodes, collapsed\ndouble-click to expand").arg(qs(b.module)).arg(b.memberCount);
}

int GraphView::nodeItemCount() const { return int(items_->boxes.size()); }
int GraphView::edgeItemCount() const { return int(items_->edges.size()); }
int GraphView::clusterItemCount() const { return int(items_->clusters.size()); }

bool GraphView::isNodeShown(int id) const {
    const GraphLayout& l = *items_->layout;
    if (id < 0 || id >= int(l.boxOfNode.size())) return false;
    int box = l.boxOfNode[id];
    return box >= 0 && box < int(items_->boxes.size()) && l.boxes[box].nodeId == id;
}

QRectF GraphView::nodeRect(int id) const {
    const GraphLayout& l = *items_->layout;
    if (id < 0 || id >= int(l.boxOfNode.size()) || l.boxOfNode[id] >= int(items_->boxes.size())) return {};
    return items_->boxes[l.boxOfNode[id]]->rect();
}

QColor GraphView::nodeFill(int id) const {
    const GraphLayout& l = *items_->layout;
    if (id < 0 || id >= int(l.boxOfNode.size()) || l.boxOfNode[id] >= int(items_->boxes.size())) return {};
    return items_->boxes[l.boxOfNode[id]]->fill();
}

bool GraphView::isNodeHighlighted(int id) const {
    const GraphLayout& l = *items_->layout;
    if (id < 0 || id >= int(l.boxOfNode.size()) || l.boxOfNode[id] >= int(items_->boxes.size())) return false;
    return items_->boxes[l.boxOfNode[id]]->isMarked();
}

QRectF GraphView::collapsedRect(const std::string& module) const {
    for (NodeItem* item : items_->boxes)
        if (item->isCollapsedModule() && items_->layout->boxes[item->box()].module == module) return item->rect();
    return {};
}

void GraphView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) refreshStyle();
}

void GraphView::refreshStyle() {
    style_->update(palette(), font());
    canvas_->setBackgroundBrush(style_->background);
    recolour();
    items_->scene->update();
}

// ---------------------------------------------------------------- legend

namespace {
struct LegendEntry {
    QString label;
    GraphNodeData::Kind kind;
    bool collapsed = false;
    int fill = -2;     // -2: neutral, -1: none, else a colour key
    int outline = 0;   // 1: selection, 2: search match
};
const std::vector<LegendEntry>& legendEntries(bool training) {
    using K = GraphNodeData::Kind;
    static const std::vector<LegendEntry> entries = {
        {"input", K::Input}, {"parameter (dotted)", K::Parameter}, {"op, filled with its kernel's colour", K::Op, false, 0},
        {"library call (double border)", K::Extern, false, 1}, {"runs eagerly (dashed)", K::Fallback}, {"output", K::Output},
        {"collapsed module (double-click)", K::Op, true}, {"selected", K::Op, false, -2, 1}, {"search match", K::Op, false, -2, 2},
    };
    // the training graphs add the bridge between forward and backward
    static const std::vector<LegendEntry> withTraining = [] {
        std::vector<LegendEntry> e = entries;
        e.insert(e.begin() + 6, {{"saved by the forward (violet)", K::Saved}, {"recomputed from saved values", K::Recomputed, false, 0}});
        return e;
    }();
    return training ? withTraining : entries;
}
constexpr int kSwatchW = 30, kSwatchH = 16, kGap = 14;
} // namespace

GraphLegend::GraphLegend(QWidget* parent) : QWidget(parent), style_(std::make_unique<GraphView::Style>()) {
    setObjectName("graphLegend");
    setToolTip("How the graph is drawn. A node's fill is the colour of the kernel that computes it (the same in the source and "
               "the kernel list); red is never a kernel's colour: it marks problems (graph breaks).");
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

GraphLegend::~GraphLegend() = default;

void GraphLegend::setTraining(bool on) {
    if (on == training_) return;
    training_ = on;
    updateGeometry();
    update();
}

QStringList GraphLegend::entries() const {
    QStringList out;
    for (const LegendEntry& e : legendEntries(training_)) out << e.label;
    return out;
}

// Entry rectangles for a width: left to right, wrapping.
static std::vector<QRect> legendRects(const QFontMetrics& fm, int width, bool training) {
    std::vector<QRect> out;
    int x = 4, y = 4;
    const int h = std::max(kSwatchH, fm.height()) + 4;
    for (const LegendEntry& e : legendEntries(training)) {
        int w = kSwatchW + 6 + fm.horizontalAdvance(e.label);
        if (x > 4 && x + w > width - 4) x = 4, y += h;
        out.emplace_back(x, y, w, h);
        x += w + kGap;
    }
    return out;
}

bool GraphLegend::hasHeightForWidth() const { return true; }
int GraphLegend::heightForWidth(int w) const {
    std::vector<QRect> r = legendRects(fontMetrics(), w, training_);
    return r.empty() ? 0 : r.back().bottom() + 5;
}
QSize GraphLegend::sizeHint() const { return {400, heightForWidth(width() > 0 ? width() : 400)}; }

void GraphLegend::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    if (height() != heightForWidth(width())) updateGeometry();
}

void GraphLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    style_->update(palette(), font());
    std::vector<QRect> rects = legendRects(fontMetrics(), width(), training_);
    const auto& entries = legendEntries(training_);
    for (size_t i = 0; i < entries.size(); ++i) {
        const LegendEntry& e = entries[i];
        QRectF box(rects[i].x() + 2, rects[i].center().y() - kSwatchH / 2.0, kSwatchW - 6, kSwatchH - 2);
        QColor fill = e.fill >= 0 ? GraphView::groupColor(e.fill, style_->dark) : e.collapsed ? style_->collapsedFill : style_->neutralFill;
        double radius = paintNodeBox(&p, box, e.kind, e.collapsed, fill, *style_);
        if (e.outline) {
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(e.outline == 1 ? style_->selection : style_->match, e.outline == 1 ? 2.5 : 2));
            p.drawRoundedRect(box.adjusted(-2, -2, 2, 2), radius + 1, radius + 1);
        }
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(rects[i].x() + kSwatchW + 4, rects[i].y(), rects[i].width() - kSwatchW, rects[i].height()), Qt::AlignVCenter | Qt::AlignLeft, e.label);
    }
}

} // namespace fl::viz
