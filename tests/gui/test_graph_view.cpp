// The graph view on the offscreen platform: a small graph lays out with every node drawn and no
// overlaps; fusion groups recolour nodes without a relayout; a click reports the node under it;
// modules collapse and expand; search highlights; a 12-layer transformer (~2,000 nodes) lays out
// off the UI thread (setGraph, expand and collapse return with the layout pending) and is drawn.
// How long that takes and the UI thread's largest stall are printed, never asserted: a loaded
// machine makes any bound fail.
#include <QtTest>

#include <QApplication>
#include <QElapsedTimer>
#include <QGraphicsView>
#include <QImage>
#include <QLineEdit>
#include <QPointer>
#include <QToolTip>
#include <QWheelEvent>

#include <set>
#include <string>
#include <vector>

#include "tests/gui/latency_probe.h"
#include "viz/graph_view.h"

namespace {

using fl::viz::GraphData;
using fl::viz::GraphNodeData;
using fl::viz::GraphView;

// A transformer-shaped graph: embedding, `layers` blocks of ~165 nodes with module paths like
// "layers.3.attn.q_proj", residual edges, then a final norm and the head.
struct TransformerBuilder {
    fl::viz::GraphData g;
    using Kind = fl::viz::GraphNodeData::Kind;

    int add(const std::string& op, Kind kind, const std::string& module, std::vector<int> inputs,
            const std::string& shape = "f32[32, 128, 256]") {
        fl::viz::GraphNodeData n;
        n.id = int(g.nodes.size());
        std::string shortOp = op.substr(op.find_last_of(".:") + 1);
        n.name = (kind == Kind::Parameter ? module + "." : "") + shortOp + "_" + std::to_string(n.id);
        n.op = op;
        n.kind = kind;
        n.module = module;
        n.shape = shape;
        n.line = 10 + n.id % 40;
        n.inputs = std::move(inputs);
        g.nodes.push_back(n);
        return n.id;
    }
    int param(const std::string& module, const std::string& what) {
        return add("placeholder." + what, Kind::Parameter, module, {}, "f32[256]");
    }
    // A decomposed op: `count` pointwise steps, each reading the previous one; every third step
    // also reads the chain's input (fan-in 2), like normalisation and activation formulas do.
    int chain(const std::string& module, int count, int in, const std::vector<std::string>& ops) {
        int cur = in;
        for (int k = 0; k < count; ++k) {
            std::vector<int> inputs{cur};
            if (k % 3 == 2) inputs.push_back(in);
            cur = add("aten::" + ops[k % ops.size()], Kind::Op, module, inputs);
        }
        return cur;
    }
    int norm(const std::string& module, int x) {  // 2 params + 18 ops
        int w = param(module, "weight"), b = param(module, "bias");
        int h = chain(module, 16, x, {"to", "mean", "sub", "pow", "mean", "add", "rsqrt", "mul"});
        int s = add("aten::mul", Kind::Op, module, {h, w});
        return add("aten::add", Kind::Op, module, {s, b});
    }
    int linear(const std::string& module, int x) {  // 2 params + 6 ops, the matmul is a library call
        int w = param(module, "weight"), b = param(module, "bias");
        int c = add("aten::to", Kind::Op, module, {x});
        int v = add("aten::view", Kind::Op, module, {c});
        int t = add("aten::t", Kind::Op, module, {w});
        int mm = add("aten::addmm", Kind::Extern, module, {b, v, t});
        int o = add("aten::view", Kind::Op, module, {mm});
        return add("aten::to", Kind::Op, module, {o});
    }
    int rotary(const std::string& module, int x, int cos, int sin) {  // 9 ops
        int a = add("aten::slice", Kind::Op, module, {x});
        int b = add("aten::slice", Kind::Op, module, {x});
        int nb = add("aten::neg", Kind::Op, module, {b});
        int rot = add("aten::cat", Kind::Op, module, {nb, a});
        int xc = add("aten::mul", Kind::Op, module, {x, cos});
        int rs = add("aten::mul", Kind::Op, module, {rot, sin});
        int s = add("aten::add", Kind::Op, module, {xc, rs});
        int v = add("aten::view", Kind::Op, module, {s});
        return add("aten::transpose", Kind::Op, module, {v});
    }
    int block(int i, int x) {
        const std::string L = "layers." + std::to_string(i);
        const std::string A = L + ".attn";
        int h = norm(L + ".norm1", x);                                       // 20
        int q = linear(A + ".q_proj", h), k = linear(A + ".k_proj", h);      // 16
        int v = linear(A + ".v_proj", h);                                    // 8
        int cos = param(A, "cos"), sin = param(A, "sin"), mask = param(A, "mask");  // 3
        q = rotary(A + ".rope", q, cos, sin);                                // 9
        k = rotary(A + ".rope", k, cos, sin);                                // 9
        int vt = add("aten::transpose", Kind::Op, A, {add("aten::view", Kind::Op, A, {v})});  // 2
        int kt = add("aten::transpose", Kind::Op, A, {k});
        int sc = add("aten::bmm", Kind::Extern, A, {q, kt});
        int dv = add("aten::div", Kind::Op, A, {sc});
        int mk = add("aten::add", Kind::Op, A, {dv, mask});                  // 4
        int sm = chain(A + ".softmax", 10, mk, {"amax", "sub", "exp", "sum", "div"});  // 10
        int dr = add("aten::dropout", Kind::Fallback, A, {sm});
        int pv = add("aten::bmm", Kind::Extern, A, {dr, vt});
        int ctx = add("aten::view", Kind::Op, A,
                      {add("aten::contiguous", Kind::Op, A, {add("aten::transpose", Kind::Op, A, {pv})})});  // 5
        int o = linear(A + ".o_proj", ctx);                                  // 8
        int ls1 = param(L, "gamma1");
        int r1 = add("aten::add", Kind::Op, L, {x, add("aten::mul", Kind::Op, L, {o, ls1})});  // 3
        int h2 = norm(L + ".norm2", r1);                                     // 20
        int up = linear(L + ".mlp.up_proj", h2), gate = linear(L + ".mlp.gate_proj", h2);  // 16
        int act = chain(L + ".mlp.act", 14, gate, {"mul", "pow", "mul", "add", "mul", "tanh", "add", "mul"});  // 14
        int gm = add("aten::mul", Kind::Op, L + ".mlp", {act, up});          // 1
        int dn = linear(L + ".mlp.down_proj", gm);                           // 8
        int dd = chain(L + ".mlp.dropout", 6, dn, {"rand", "lt", "mul", "div"});  // 6
        int ls2 = param(L, "gamma2");
        int r2 = add("aten::add", Kind::Op, L, {r1, add("aten::mul", Kind::Op, L, {dd, ls2})});  // 3
        return add("aten::clone", Kind::Op, L, {r2});                        // 1: 166 in all
    }
    static fl::viz::GraphData make(int layers) {
        TransformerBuilder b;
        b.g.title = "transformer";
        int tokens = b.add("placeholder", Kind::Input, "", {}, "i64[32, 128]");
        int table = b.param("embed", "weight");
        int x = b.add("aten::embedding", Kind::Extern, "embed", {table, tokens});
        x = b.chain("embed", 3, x, {"mul", "add", "dropout"});
        for (int i = 0; i < layers; ++i) x = b.block(i, x);
        x = b.norm("norm", x);
        x = b.linear("lm_head", x);
        b.add("output", Kind::Output, "", {x}, "f32[32, 128, 32000]");
        return std::move(b.g);
    }
};

// Nine nodes: an input, a parameter, a "block" module holding "block.attn" and "block.mlp",
// an eager fallback at the top level and the output; ten edges.
GraphData smallGraph() {
    GraphData g;
    g.title = "small";
    using Kind = GraphNodeData::Kind;
    auto add = [&](std::string name, std::string op, Kind kind, std::string module, std::vector<int> inputs) {
        GraphNodeData n;
        n.id = int(g.nodes.size());
        n.name = std::move(name);
        n.op = std::move(op);
        n.kind = kind;
        n.module = std::move(module);
        n.shape = "f32[32, 256]";
        n.line = 3 + n.id;
        n.inputs = std::move(inputs);
        g.nodes.push_back(n);
        return n.id;
    };
    int x = add("x", "placeholder", Kind::Input, "", {});                                     // 0
    int w = add("block.attn.weight", "placeholder", Kind::Parameter, "block.attn", {});       // 1
    int mm = add("mm_1", "aten::mm", Kind::Extern, "block.attn", {x, w});                     // 2
    int sm = add("softmax_1", "torch.softmax", Kind::Op, "block.attn", {mm});                 // 3
    int fc = add("linear_1", "torch.nn.functional.linear", Kind::Op, "block.mlp", {sm});      // 4
    int ge = add("gelu_1", "torch.nn.functional.gelu", Kind::Op, "block.mlp", {fc});          // 5
    int ad = add("add_1", "operator.add", Kind::Op, "block", {ge, x});                        // 6
    int pr = add("print_1", "builtins.print", Kind::Fallback, "", {ad});                      // 7
    add("output", "output", Kind::Output, "", {ad, pr});                                       // 8
    return g;
}

int edgeCount(const GraphData& g) {
    int n = 0;
    for (const GraphNodeData& node : g.nodes) n += int(node.inputs.size());
    return n;
}

bool waitLaidOut(GraphView& v, QSignalSpy& spy, int timeoutMs = 10000) {
    return (spy.count() > 0 || spy.wait(timeoutMs)) && !v.isLayingOut();
}

int distinctColours(const QImage& img) {
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); y += 5)
        for (int x = 0; x < img.width(); x += 5) colours.insert(img.pixel(x, y));
    return int(colours.size());
}


} // namespace

class TestGraphView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void smallGraphLaysOutWithoutOverlaps();
    void groupsRecolourWithoutRelayout();
    void clickReportsTheNode();
    void collapseAndExpandRelayout();
    void searchHighlightsAndEnterSelects();
    void newerGraphWinsAndDeletionIsSafe();
    void bigGraphCollapsedLaysOutOffTheUiThread();
    void bigGraphExpandedLaysOutOffTheUiThread();
    void selectingAHiddenNodeExpandsItsModule();
    void focusBringsFarApartNodesIntoView();
    void updateGraphKeepsTheLayout();
};

void TestGraphView::smallGraphLaysOutWithoutOverlaps() {
    GraphView v;
    v.resize(900, 700);
    v.show();
    const GraphData g = smallGraph();
    QSignalSpy done(&v, &GraphView::layoutFinished);
    v.setGraph(g);
    QVERIFY(v.isLayingOut());
    QVERIFY(waitLaidOut(v, done));
    QCOMPARE(done.count(), 1);
    QVERIFY(v.currentLayout().error.empty());

    QCOMPARE(v.nodeItemCount(), int(g.nodes.size()));  // small graphs open expanded
    QCOMPARE(v.edgeItemCount(), edgeCount(g));
    QCOMPARE(v.clusterItemCount(), 3);                  // block, block.attn, block.mlp
    for (const GraphNodeData& n : g.nodes) {
        QVERIFY2(v.isNodeShown(n.id), n.name.c_str());
        QVERIFY(v.nodeRect(n.id).width() > 20 && v.nodeRect(n.id).height() > 10);
    }
    for (size_t a = 0; a < g.nodes.size(); ++a)
        for (size_t b = a + 1; b < g.nodes.size(); ++b)
            QVERIFY2(!v.nodeRect(int(a)).intersects(v.nodeRect(int(b))),
                     qPrintable(QString("nodes %1 and %2 overlap").arg(a).arg(b)));
    // Top to bottom: an input sits above what reads it; each module's box holds its nodes.
    QVERIFY(v.nodeRect(0).center().y() < v.nodeRect(2).center().y());
    QVERIFY(v.nodeRect(2).center().y() < v.nodeRect(8).center().y());
    for (const auto& c : v.currentLayout().clusters) {
        const QRectF frame(c.rect.x, c.rect.y, c.rect.width, c.rect.height);
        for (const GraphNodeData& n : g.nodes)
            if (n.module == c.module) QVERIFY2(frame.contains(v.nodeRect(n.id)), n.name.c_str());
    }

    QTRY_VERIFY(distinctColours(v.view()->viewport()->grab().toImage()) > 4);

    // Which modules start collapsed: none here; each layer in a big graph.
    QVERIFY(fl::viz::defaultCollapsedModules(g).empty());
    QCOMPARE(fl::viz::defaultCollapsedModules(g, true), (std::set<std::string>{"block.attn", "block.mlp"}));
    const std::set<std::string> big = fl::viz::defaultCollapsedModules(TransformerBuilder::make(12));
    QCOMPARE(int(big.size()), 12);
    QVERIFY(big.count("layers.0") && big.count("layers.11") && !big.count("embed"));
    QVERIFY(v.nodeTooltip(5).contains("torch.nn.functional.gelu"));
    QVERIFY(v.nodeTooltip(5).contains("block.mlp"));
}

void TestGraphView::groupsRecolourWithoutRelayout() {
    GraphView v;
    const GraphData g = smallGraph();
    QSignalSpy done(&v, &GraphView::layoutFinished);
    v.setGraph(g);
    QVERIFY(waitLaidOut(v, done));
    const QColor neutral = v.nodeFill(2);
    QVERIFY(neutral.isValid());
    QCOMPARE(v.nodeFill(4), neutral);

    std::vector<int> groups(g.nodes.size(), -1);
    groups[2] = groups[3] = 0;  // mm + softmax
    groups[4] = groups[5] = 1;  // linear + gelu
    v.setGroups(groups);
    QVERIFY(!v.isLayingOut());
    QCOMPARE(done.count(), 1);
    QVERIFY(v.nodeFill(2) != neutral);
    QCOMPARE(v.nodeFill(3), v.nodeFill(2));
    QVERIFY(v.nodeFill(4) != neutral);
    QVERIFY(v.nodeFill(4) != v.nodeFill(2));
    QCOMPARE(v.nodeFill(6), neutral);
    QVERIFY(v.nodeTooltip(4).contains("group: 1"));
    QCOMPARE(GraphView::groupColor(7, false), GraphView::groupColor(7, false));  // deterministic

    std::vector<int> other(g.nodes.size(), -1);
    other[6] = 4;
    v.setGroups(other);
    QCOMPARE(v.nodeFill(2), neutral);
    QCOMPARE(v.nodeFill(5), neutral);
    QVERIFY(v.nodeFill(6) != neutral);
    v.setGroups({});
    QCOMPARE(v.nodeFill(6), neutral);
    QCOMPARE(done.count(), 1);  // never relaid out

    // A dark palette: fills follow it, group colours stay apart.
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::Text, QColor(225, 225, 225));
    v.setPalette(dark);
    QVERIFY(v.nodeFill(6).lightness() < neutral.lightness());
    v.setGroups(groups);
    QCOMPARE(v.nodeFill(2), GraphView::groupColor(0, true));
    QVERIFY(v.nodeFill(2) != v.nodeFill(4));
    QCOMPARE(done.count(), 1);
}

void TestGraphView::clickReportsTheNode() {
    GraphView v;
    v.resize(900, 700);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    QSignalSpy done(&v, &GraphView::layoutFinished);
    v.setGraph(smallGraph());
    QVERIFY(waitLaidOut(v, done));
    QSignalSpy clicked(&v, &GraphView::nodeClicked);
    for (int id : {5, 0}) {
        v.view()->centerOn(v.nodeRect(id).center());
        const QPoint at = v.view()->mapFromScene(v.nodeRect(id).center());
        QVERIFY(v.view()->viewport()->rect().contains(at));
        QTest::mouseClick(v.view()->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.takeFirst().at(0).toInt(), id);
        QCOMPARE(v.selectedNodes(), std::vector<int>{id});
        QVERIFY(v.isNodeHighlighted(id));
    }
    // Hovering shows the node's facts.
    const QPoint over = v.view()->mapFromScene(v.nodeRect(5).center());
    QHelpEvent help(QEvent::ToolTip, over, v.view()->viewport()->mapToGlobal(over));
    QApplication::sendEvent(v.view()->viewport(), &help);
    QTRY_COMPARE(QToolTip::text(), v.nodeTooltip(5));
    QVERIFY(QToolTip::text().contains("line: 8"));
    // Ctrl+wheel and the buttons zoom.
    const double before = v.view()->transform().m11();
    QWheelEvent wheel(QPointF(over), QPointF(v.view()->viewport()->mapToGlobal(over)), QPoint(), QPoint(0, 240),
                      Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(v.view()->viewport(), &wheel);
    QVERIFY(v.view()->transform().m11() > before * 1.2);
    v.zoomOut();
    v.zoomOut();
    QVERIFY(v.view()->transform().m11() < before);
    v.fit();
    QVERIFY(v.view()->mapToScene(v.view()->viewport()->rect()).boundingRect().contains(v.nodeRect(8)));
    // A click on empty space reports nothing and clears the selection.
    const QPoint corner = v.view()->mapFromScene(v.view()->sceneRect().topLeft() + QPointF(2, 2));
    QTest::mouseClick(v.view()->viewport(), Qt::LeftButton, {}, corner);
    QCOMPARE(clicked.count(), 0);
    QVERIFY(v.selectedNodes().empty());
}

void TestGraphView::collapseAndExpandRelayout() {
    GraphView v;
    v.resize(900, 700);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    const GraphData g = smallGraph();
    QSignalSpy done(&v, &GraphView::layoutFinished);
    v.setGraph(g);
    QVERIFY(waitLaidOut(v, done));
    const int all = v.nodeItemCount();

    done.clear();
    v.setCollapsed("block.attn", true);
    QVERIFY(v.isLayingOut());
    QVERIFY(waitLaidOut(v, done));
    QCOMPARE(v.nodeItemCount(), all - 3 + 1);
    QVERIFY(!v.isNodeShown(2));
    QCOMPARE(v.nodeRect(2), v.nodeRect(3));  // both shown by the module's box
    QVERIFY(!v.collapsedRect("block.attn").isEmpty());

    done.clear();
    v.setCollapsed("block", true);  // block holds block.attn, block.mlp and add_1: 6 nodes
    QVERIFY(waitLaidOut(v, done));
    QCOMPARE(v.nodeItemCount(), all - 6 + 1);
    QCOMPARE(v.clusterItemCount(), 0);
    // x -> block (twice in the graph, once here), block -> print, block -> output, print -> output.
    QCOMPARE(v.edgeItemCount(), 4);
    QCOMPARE(v.nodeFill(4), v.nodeFill(6));  // a collapsed box is neutral whatever the groups
    v.setGroups({-1, -1, -1, -1, 3, 3, -1, -1, -1});
    QCOMPARE(v.nodeFill(4), v.nodeFill(6));

    // Double-clicking the box expands it (block.attn stays collapsed inside).
    done.clear();
    const QRectF box = v.collapsedRect("block");
    v.view()->centerOn(box.center());
    QTest::mouseDClick(v.view()->viewport(), Qt::LeftButton, {}, v.view()->mapFromScene(box.center()));
    QVERIFY(waitLaidOut(v, done));
    QVERIFY(!v.isCollapsed("block"));
    QCOMPARE(v.nodeItemCount(), all - 3 + 1);

    done.clear();
    v.expandAll();
    QVERIFY(waitLaidOut(v, done));
    QCOMPARE(v.nodeItemCount(), all);
    QVERIFY(v.collapsedModules().empty());
}

void TestGraphView::searchHighlightsAndEnterSelects() {
    GraphView v;
    QSignalSpy done(&v, &GraphView::layoutFinished);
    v.setGraph(smallGraph());
    QVERIFY(waitLaidOut(v, done));
    QTest::keyClicks(v.searchBox(), "LIN");  // case-insensitive, matches name or op
    QCOMPARE(v.searchMatches(), std::vector<int>{4});
    QVERIFY(v.isNodeHighlighted(4));
    QVERIFY(!v.isNodeHighlighted(5));
    v.searchBox()->clear();
    QTest::keyClicks(v.searchBox(), "_1");  // mm_1 softmax_1 linear_1 gelu_1 add_1 print_1
    QCOMPARE(v.searchMatches().size(), size_t(6));
    QTest::keyClick(v.searchBox(), Qt::Key_Return);
    QCOMPARE(v.selectedNodes(), std::vector<int>{2});
    QTest::keyClick(v.searchBox(), Qt::Key_Return);
    QCOMPARE(v.selectedNodes(), std::vector<int>{3});
    v.searchBox()->clear();
    QVERIFY(v.searchMatches().empty());
    QVERIFY(!v.isNodeHighlighted(4));
}

void TestGraphView::newerGraphWinsAndDeletionIsSafe() {
    {
        GraphView v;
        QSignalSpy done(&v, &GraphView::layoutFinished);
        v.setGraph(TransformerBuilder::make(2));
        v.setGraph(smallGraph());  // the older request is dropped or its result discarded
        QVERIFY(waitLaidOut(v, done));
        QTest::qWait(300);
        QCOMPARE(done.count(), 1);
        QCOMPARE(v.nodeItemCount(), int(smallGraph().nodes.size()));
    }
    // Deleted while Graphviz runs: the worker finishes and must not touch the dead view.
    auto* v = new GraphView;
    QPointer<GraphView> guard(v);
    v->setGraph(TransformerBuilder::make(12));
    v->expandAll();
    QVERIFY(v->isLayingOut());
    delete v;
    QVERIFY(guard.isNull());
    // The lock comes free once that layout ends; another view still works afterwards.
    GraphView w;
    QSignalSpy done(&w, &GraphView::layoutFinished);
    w.setGraph(smallGraph());
    QVERIFY(waitLaidOut(w, done));
    QTest::qWait(100);
}

namespace {

struct Timing {
    qint64 ms = 0, worstGap = 0;
    bool async = false; // start() returned with the layout still pending (it runs on the worker thread)
};

// From `start` to a built scene and a grabbed viewport, with the latency probe running.
template <typename Start>
Timing measure(GraphView& v, Start start) {
    QSignalSpy done(&v, &GraphView::layoutFinished);
    LatencyProbe probe;
    QTest::qWait(30);  // the probe's first ticks
    probe.worst = 0;
    QElapsedTimer clock;
    clock.start();
    start();
    Timing t;
    t.async = v.isLayingOut() && done.isEmpty();
    if (!done.wait(120000)) return {};
    const QImage img = v.view()->viewport()->grab().toImage();
    t.ms = clock.elapsed();
    QTest::qWait(30);  // let the probe see the gap across the grab too
    t.worstGap = probe.worst;
    if (distinctColours(img) < 3) t.ms = 0;  // nothing drawn
    return t;
}

} // namespace

void TestGraphView::bigGraphCollapsedLaysOutOffTheUiThread() {
    GraphView v;
    v.resize(1000, 700);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    const GraphData g = TransformerBuilder::make(12);
    QVERIFY(g.nodes.size() > 1900 && g.nodes.size() < 2100);
    const Timing t = measure(v, [&] { v.setGraph(g); });
    qInfo("12-layer transformer, %d nodes, default (layers collapsed, %d boxes): layout + draw %lld ms "
          "(Graphviz %.0f ms), largest UI gap %lld ms",
          int(g.nodes.size()), v.nodeItemCount(), t.ms, v.currentLayout().milliseconds, t.worstGap);
    QVERIFY2(t.ms > 0, "no layout, or nothing drawn");
    QVERIFY(v.isCollapsed("layers.0") && v.isCollapsed("layers.11"));
    QVERIFY(v.nodeItemCount() < 100);
    QVERIFY2(t.async, "setGraph should return at once and lay out on the worker thread");
}

void TestGraphView::bigGraphExpandedLaysOutOffTheUiThread() {
    GraphView v;
    v.resize(1000, 700);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    const GraphData g = TransformerBuilder::make(12);
    QSignalSpy done(&v, &GraphView::layoutFinished);
    v.setGraph(g);
    QVERIFY(waitLaidOut(v, done));
    const Timing t = measure(v, [&] { v.expandAll(); });
    qInfo("12-layer transformer, %d nodes, all expanded (%d clusters): layout + draw %lld ms "
          "(Graphviz %.0f ms), largest UI gap %lld ms",
          int(g.nodes.size()), v.clusterItemCount(), t.ms, v.currentLayout().milliseconds, t.worstGap);
    QVERIFY2(t.ms > 0, "no layout, or nothing drawn");
    QCOMPARE(v.nodeItemCount(), int(g.nodes.size()));
    QVERIFY2(t.async, "expandAll should return at once and lay out on the worker thread");
    // Fit and zoom still draw the whole thing.
    v.fit();
    QVERIFY(v.view()->transform().m11() < 0.1);
    QVERIFY(distinctColours(v.view()->viewport()->grab().toImage()) > 2);

    // Back to collapsed: the 4,600 items of the expanded scene are replaced the same way.
    const Timing back = measure(v, [&] { v.collapseAll(); });
    qInfo("collapse all again: %lld ms, largest UI gap %lld ms", back.ms, back.worstGap);
    QVERIFY(back.ms > 0);
    QVERIFY(v.nodeItemCount() < 100);
    QVERIFY2(back.async, "collapseAll should return at once and lay out on the worker thread");
}

void TestGraphView::selectingAHiddenNodeExpandsItsModule() {
    GraphView v;
    v.resize(1000, 700);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    const GraphData g = TransformerBuilder::make(3);  // ~500 nodes: opens collapsed
    QSignalSpy done(&v, &GraphView::layoutFinished);
    v.setGraph(g);
    QVERIFY(waitLaidOut(v, done));
    int target = -1;
    for (const GraphNodeData& n : g.nodes)
        if (n.module == "layers.1.mlp.act") target = n.id;
    QVERIFY(target >= 0);
    QVERIFY(!v.isNodeShown(target));

    done.clear();
    v.selectNodes({target});
    QVERIFY(waitLaidOut(v, done));
    QVERIFY(v.isNodeShown(target));
    QVERIFY(!v.isCollapsed("layers.1"));
    QVERIFY(v.isCollapsed("layers.0") && v.isCollapsed("layers.2"));
    QCOMPARE(v.selectedNodes(), std::vector<int>{target});
    QVERIFY(v.isNodeHighlighted(target));
    const QPoint at = v.view()->mapFromScene(v.nodeRect(target).center());
    QVERIFY2(v.view()->viewport()->rect().contains(at), "the view centres on the selection");
}

// Two nodes far apart (the first layer's and the last's, as a fusion pair can be): selected with
// both as the focus, both are in view, the view zoomed out as far as that needs; a focus that fits
// keeps the zoom.
void TestGraphView::focusBringsFarApartNodesIntoView() {
    GraphView v;
    v.resize(900, 600);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    const GraphData g = TransformerBuilder::make(3);
    QSignalSpy done(&v, &GraphView::layoutFinished);
    v.setGraph(g);
    QVERIFY(waitLaidOut(v, done));
    v.expandAll();
    done.clear();
    QVERIFY(waitLaidOut(v, done));
    int first = -1, last = -1;
    for (const GraphNodeData& n : g.nodes) {
        if (first < 0 && n.module.rfind("layers.0.", 0) == 0 && n.kind == GraphNodeData::Kind::Op) first = n.id;
        if (n.module.rfind("layers.2.", 0) == 0 && n.kind == GraphNodeData::Kind::Op) last = n.id;
    }
    QVERIFY(first >= 0 && last > first);
    auto inView = [&](int id) {
        return v.view()->mapToScene(v.view()->viewport()->rect()).boundingRect().contains(v.nodeRect(id));
    };
    // readable, on the first node: the last is out of view
    v.view()->resetTransform();
    v.selectNodes({first});
    QVERIFY(inView(first));
    QVERIFY2(!inView(last), "the two nodes should not fit at scale 1 (the test needs them apart)");
    const double before = v.view()->transform().m11();
    v.selectNodes({first, last}, {first, last});
    QVERIFY2(inView(first) && inView(last), "both nodes of the focus are in view");
    QVERIFY(v.view()->transform().m11() < before);
    QCOMPARE(v.selectedNodes(), (std::vector<int>{first, last}));
    // a focus that fits: the zoom stays, the view centres on it
    const double zoomed = v.view()->transform().m11();
    v.selectNodes({first + 1}, {first + 1});
    QCOMPARE(v.view()->transform().m11(), zoomed);
    QVERIFY(inView(first + 1));
}

// The same graph with its nodes' kinds filled in (a partial snapshot's graph once compiled) is
// redrawn in place: no layout, what is collapsed and the view stay; another graph is refused.
void TestGraphView::updateGraphKeepsTheLayout() {
    GraphView v;
    v.resize(900, 600);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    GraphData g = TransformerBuilder::make(3);
    for (GraphNodeData& n : g.nodes)
        if (n.kind == GraphNodeData::Kind::Extern) n.kind = GraphNodeData::Kind::Op; // not compiled yet
    QSignalSpy done(&v, &GraphView::layoutFinished);
    v.setGraph(g);
    QVERIFY(waitLaidOut(v, done));
    v.setCollapsed("layers.1", false);
    done.clear();
    QVERIFY(waitLaidOut(v, done));
    int lib = -1;
    for (const GraphNodeData& n : TransformerBuilder::make(3).nodes)
        if (n.kind == GraphNodeData::Kind::Extern && n.module.rfind("layers.1.", 0) == 0) lib = n.id;
    QVERIFY(lib >= 0 && v.isNodeShown(lib));
    const QRectF box = v.nodeRect(lib);
    const QTransform zoom = v.view()->transform();
    done.clear();
    QVERIFY(v.updateGraph(TransformerBuilder::make(3)));
    QVERIFY2(!v.isLayingOut() && done.isEmpty(), "no layout for the same graph");
    QCOMPARE(v.graph().nodes[size_t(lib)].kind, GraphNodeData::Kind::Extern);
    QCOMPARE(v.nodeRect(lib), box);
    QCOMPARE(v.view()->transform(), zoom);
    QVERIFY(!v.isCollapsed("layers.1") && v.isCollapsed("layers.0"));
    v.view()->centerOn(box.center());
    QImage drawn = v.view()->viewport()->grab().toImage();
    v.view()->centerOn(box.center());
    QVERIFY(v.updateGraph(g)); // back to plain boxes: the pixels differ where the double border was
    QImage undrawn = v.view()->viewport()->grab().toImage();
    QVERIFY2(drawn != undrawn, "the library call's box is redrawn with its double border");
    // another graph: refused, nothing changed
    GraphData other = g;
    other.nodes.back().inputs.clear();
    QVERIFY(!v.updateGraph(other));
    QVERIFY(!v.isLayingOut());
}

QTEST_MAIN(TestGraphView)
#include "test_graph_view.moc"
