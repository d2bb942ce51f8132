#include "viz/panes.h"

#include <QApplication>
#include <QCheckBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTextDocument>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

#include "viz/code_highlighter.h"
#include "viz/code_view.h"
#include "viz/graph_view.h"

namespace fl::viz {

using inspect::SnapEntry;
using inspect::SnapNode;
using inspect::SnapTraining;

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString bytesText(int64_t b) {
    if (b >= (int64_t(1) << 20)) return QString("%1 MiB").arg(double(b) / double(1 << 20), 0, 'f', 1);
    if (b >= 1024) return QString("%1 KiB").arg(double(b) / 1024.0, 0, 'f', 0);
    return QString("%1 B").arg(b);
}

QLabel* captionLabel(QWidget* parent) {
    auto* l = new QLabel(parent);
    l->setWordWrap(true);
    l->setTextFormat(Qt::RichText);
    l->setContentsMargins(4, 2, 4, 2);
    return l;
}

} // namespace

// "L_self_modules_layers_modules_0_modules_attn_parameters_weight_" -> "layers.0.attn.weight":
// a parameter's placeholder name read back as the attribute path it stands for.
std::string parameterPath(const std::string& name) {
    std::string s = name;
    if (s.rfind("L_", 0) == 0) s = s.substr(2);
    if (!s.empty() && s.back() == '_') s.pop_back();
    if (s.rfind("self_modules_", 0) == 0) s = s.substr(13);
    else if (s.rfind("self_", 0) == 0) s = s.substr(5);
    for (const char* sep : {"_modules_", "_parameters_", "_buffers_"}) {
        size_t at;
        while ((at = s.find(sep)) != std::string::npos) s.replace(at, std::string(sep).size(), ".");
    }
    for (const char* head : {"parameters_", "buffers_"})
        if (s.rfind(head, 0) == 0) s = s.substr(std::string(head).size());
    return s.empty() ? name : s;
}

GraphData graphDataOf(const SnapEntry& e) {
    GraphData g;
    g.title = e.id + " " + e.function;
    for (const SnapNode& n : e.nodes) {
        GraphNodeData d;
        d.id = n.id, d.name = n.name, d.op = n.op, d.shape = n.shape, d.module = n.module, d.line = n.line, d.inputs = n.inputs;
        switch (n.kind) {
        case SnapNode::Kind::Input: d.kind = GraphNodeData::Kind::Input; break;
        case SnapNode::Kind::Parameter: d.kind = GraphNodeData::Kind::Parameter, d.name = parameterPath(n.name); break;
        case SnapNode::Kind::Op: d.kind = GraphNodeData::Kind::Op; break;
        case SnapNode::Kind::Extern: d.kind = GraphNodeData::Kind::Extern; break;
        case SnapNode::Kind::Fallback: d.kind = GraphNodeData::Kind::Fallback; break;
        case SnapNode::Kind::Output: d.kind = GraphNodeData::Kind::Output; break;
        }
        g.nodes.push_back(std::move(d));
    }
    // A parameter or buffer belongs with the module that reads it (placeholders carry no module
    // path): a collapsed layer then hides its weights too.
    for (const GraphNodeData& d : g.nodes)
        for (int in : d.inputs) {
            GraphNodeData& p = g.nodes[size_t(in)];
            if (p.kind == GraphNodeData::Kind::Parameter && p.module.empty() && !d.module.empty()) p.module = d.module;
        }
    return g;
}

const SnapEntry* graphOf(const SnapEntry& e, GraphKind kind) {
    if (kind == GraphKind::Captured) return &e;
    const SnapTraining* t = e.training.get();
    if (!t) return nullptr;
    const SnapEntry& g = kind == GraphKind::TrainingForward ? t->forward : kind == GraphKind::Backward ? t->backward : t->joint;
    return g.nodes.empty() ? nullptr : &g;
}

GraphData backwardGraphDataOf(const SnapEntry& e) {
    if (!e.training) return {};
    const SnapTraining& t = *e.training;
    GraphData g = graphDataOf(t.backward);
    g.title = e.id + " backward";
    for (GraphNodeData& d : g.nodes) {
        const size_t i = size_t(d.id);
        const int from = i < t.savedFrom.size() ? t.savedFrom[i] : -1;
        if (from >= 0 && size_t(from) < e.nodes.size()) {
            const SnapNode& f = e.nodes[size_t(from)];
            d.kind = GraphNodeData::Kind::Saved;
            d.name = "saved: " + (f.kind == SnapNode::Kind::Parameter ? parameterPath(f.name) : f.name);
            d.module = f.module;
        } else if (i < t.recomputedFrom.size() && t.recomputedFrom[i] >= 0) {
            d.kind = GraphNodeData::Kind::Recomputed;
        }
    }
    return g;
}

std::vector<int> colourKeysAt(const SnapEntry& e, int step) {
    std::vector<int> keys(e.nodes.size(), -1);
    if (e.groupsAt.empty()) return keys;
    step = std::clamp(step, 0, int(e.groupsAt.size()) - 1);
    const std::vector<int>& now = e.groupsAt[size_t(step)];
    const std::vector<int>& fin = e.groupsAt.back();
    for (size_t g = 0; g < e.nodes.size() && g < now.size(); ++g) {
        if (now[g] < 0) continue;
        // Group roots are their smallest program node: the part of a final group that holds
        // its root is the one that becomes the kernel.
        keys[g] = now[g] == fin[g] && e.nodes[g].kernel >= 0 ? e.nodes[g].kernel : 1000 + now[g];
    }
    return keys;
}

QColor keyColour(int key) {
    bool dark = QApplication::palette().color(QPalette::Window).lightness() < 128;
    return GraphView::groupColor(key, dark);
}

QString frameName(const SnapEntry& e) {
    const QString qual = q(e.qualname.empty() ? e.function : e.qualname);
    const QString fn = q(e.function);
    if (fn.startsWith("torch_dynamo_resume_in_")) return QString("resume in %1 at %2").arg(qual, fn.section("_at_", -1));
    if (QString::fromStdString(e.file).startsWith("<fuselab:")) return qual + " (built in)";
    return QString("%1:%2").arg(qual).arg(e.line);
}

QString pendingText(const inspect::Snapshot& s) {
    int n = 0, m = 0;
    for (size_t i = 0; i < s.entries.size(); ++i)
        if (s.entries[i].pending) ++m, n += int(i) <= s.compilingEntry;
    return QString("Compiling kernels… (graph %1 of %2 captured so far)").arg(n).arg(m);
}

// ---------------------------------------------------------------- graphs

GraphsPane::GraphsPane(QWidget* parent) : QWidget(parent) {
    // The frames above the graph, as wide as the pane, so that their names and status show whole
    // beside the kernels.
    auto* split = new QSplitter(Qt::Vertical, this);
    tree_ = new QTreeWidget(split);
    tree_->setObjectName("entryTree");
    tree_->setHeaderLabels({"Frame / entry", "Status", "Ops"});
    tree_->setRootIsDecorated(true);
    tree_->header()->setStretchLastSection(false);
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    auto* right = new QWidget(split);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    caption_ = captionLabel(right);
    // an entry with compiled training draws any of its graphs; the tabs show only for such an entry
    graphTabs_ = new QTabBar(right);
    graphTabs_->setObjectName("graphKindTabs");
    graphTabs_->setDocumentMode(true);
    graphTabs_->setExpanding(false);
    for (const char* t : {"Forward (captured)", "Training forward", "Backward", "Joint"}) graphTabs_->addTab(t);
    graphTabs_->setTabToolTip(0, "The graph Dynamo captured, as its calls without grad run it");
    graphTabs_->setTabToolTip(1, "The forward that calls with grad run: the captured graph, also returning the values saved for the backward");
    graphTabs_->setTabToolTip(2, "The backward graph: saved values and output grads in (violet: what the forward saved), "
                                 "forward nodes recomputed (violet dash-dot), one grad per input that requires grad out");
    graphTabs_->setTabToolTip(3, "The joint graph before the partition: forward nodes, then the derivative rules' nodes");
    graphTabs_->setVisible(false);
    connect(graphTabs_, &QTabBar::currentChanged, this, [this](int i) { if (i >= 0) setGraphKind(GraphKind(i)); });
    auto* vsplit = new QSplitter(Qt::Vertical, right);
    graph_ = new GraphView(vsplit);
    graph_->setObjectName("graphView");
    details_ = new QTextBrowser(vsplit);
    details_->setObjectName("nodeDetails");
    details_->setOpenLinks(false);
    details_->setHtml("<p>Click a node to see its details.</p>");
    vsplit->setStretchFactor(0, 3);
    vsplit->setStretchFactor(1, 2);
    vsplit->setSizes({360, 240});
    legend_ = new GraphLegend(right);
    rl->addWidget(caption_);
    rl->addWidget(graphTabs_);
    rl->addWidget(vsplit, 1);
    rl->addWidget(legend_);
    connect(details_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        const QString s = url.toString();
        const int value = s.section(':', 1).toInt();
        if (s.startsWith("node:")) Q_EMIT nodeLinkActivated(value);
        else if (s.startsWith("line:")) Q_EMIT lineLinkActivated(value);
        else if (s.startsWith("kernel:")) Q_EMIT kernelLinkActivated(value);
        else if (s.startsWith("forward:")) Q_EMIT forwardNodeActivated(value);
    });
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    tree_->setMinimumHeight(60);
    split->setSizes({90, 700});
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(split);
    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* it) {
        if (!it) return;
        int index = it->data(0, Qt::UserRole).toInt();
        if (index >= 0 && index != current_) selectEntry(index);
    });
}

void GraphsPane::setSnapshot(SnapshotP s) {
    // The same run's next snapshot (kernels added to a partial one, or more graphs captured): the
    // entry, the graph drawn (no new layout), the view and the node details stay as the user left them.
    const bool sameRun = snap_ && snap_->partial && current_ >= 0 && size_t(current_) < s->entries.size() &&
                         s->entries[size_t(current_)].id == snap_->entries[size_t(current_)].id &&
                         s->entries[size_t(current_)].nodes.size() == snap_->entries[size_t(current_)].nodes.size();
    const int keepEntry = sameRun ? current_ : -1, keepNode = sameRun ? detailsNode_ : -1;
    snap_ = std::move(s);
    current_ = -1;
    showNodeDetails(-1);
    graphTabs_->setVisible(false);
    tree_->clear();
    std::map<std::string, QTreeWidgetItem*> frames; // by function + file + line of the frame
    for (size_t i = 0; i < snap_->entries.size(); ++i) {
        const SnapEntry& e = snap_->entries[i];
        std::string frameId = e.id.substr(0, e.id.find('/'));
        QTreeWidgetItem*& fr = frames[frameId];
        if (!fr) {
            fr = new QTreeWidgetItem(tree_, {QString("[%1] %2").arg(q(frameId), frameName(e)), "", ""});
            fr->setData(0, Qt::UserRole, -1);
            fr->setToolTip(0, QString("%1\n%2, line %3").arg(q(e.function), q(e.file)).arg(e.line));
            fr->setExpanded(true);
        }
        // the limit is the frame's: later misses of the frame run eagerly; its entries keep theirs
        if (e.limitHit) {
            fr->setText(1, "recompile limit hit");
            fr->setToolTip(1, "the frame reached the recompile limit: calls that match none of its entries run eagerly");
        }
        QString status = e.pending ? (int(i) == snap_->compilingEntry ? "compiling…" : "captured") : q(e.status);
        if (e.training) status += e.training->compiled ? " + backward" : " + eager backward";
        auto* it = new QTreeWidgetItem(fr, {q(e.id), status, QString::number(e.ops)});
        it->setData(0, Qt::UserRole, int(i));
        QString tip = QString("%1 guards").arg(e.guards.size());
        if (e.pending) tip += "\n" + pendingText(*snap_);
        if (!e.backend.empty()) tip += ", compiled by " + q(e.backend);
        if (!e.note.empty()) tip += "\n" + q(e.note);
        it->setToolTip(0, tip);
    }
    if (snap_->entries.empty()) {
        caption_->setText(snap_->partial ? "Running the script…" : "No compiled graphs: the script made no call into a torch.compile'd function or module.");
        graph_->setGraph(GraphData{});
    } else if (keepEntry >= 0) {
        refining_ = true;
        selectEntry(keepEntry);
        refining_ = false;
        showNodeDetails(keepNode);
    } else {
        selectEntry(0);
    }
}

QString GraphsPane::caption() const {
    QTextDocument d;
    d.setHtml(caption_->text());
    return d.toPlainText();
}

void GraphsPane::showNodeDetails(int id) {
    detailsNode_ = -1;
    const SnapEntry* graph = shownGraph();
    if (!graph || id < 0 || size_t(id) >= graph->nodes.size()) {
        details_->setHtml("<p>Click a node to see its details.</p>");
        return;
    }
    detailsNode_ = id;
    const SnapEntry& e = *graph;
    const SnapEntry& captured = snap_->entries[size_t(current_)];
    const SnapNode& n = e.nodes[size_t(id)];
    auto shown = [&](const SnapNode& x) { return q(x.kind == SnapNode::Kind::Parameter ? parameterPath(x.name) : x.name).toHtmlEscaped(); };
    auto link = [&](int other) { return QString("<a href=\"node:%1\">%2</a>").arg(other).arg(shown(e.nodes[size_t(other)])); };
    auto links = [&](const std::vector<int>& ids) {
        QStringList l;
        for (int x : ids) l << link(x);
        return l.isEmpty() ? QString("—") : l.join(", ");
    };
    std::vector<int> users;
    for (const SnapNode& m : e.nodes)
        if (std::find(m.inputs.begin(), m.inputs.end(), id) != m.inputs.end()) users.push_back(m.id);
    static const char* kinds[] = {"graph input", "parameter", "op", "library call", "runs eagerly", "output"};
    const bool saved = kind_ == GraphKind::Backward && captured.training && size_t(id) < captured.training->savedFrom.size() &&
                       captured.training->savedFrom[size_t(id)] >= 0;
    const bool call = n.kind != SnapNode::Kind::Input && n.kind != SnapNode::Kind::Parameter && n.kind != SnapNode::Kind::Output;
    QString rows;
    auto row = [&](const QString& k, const QString& v) { rows += "<tr><td style='padding-right:10px;color:gray'>" + k + "</td><td>" + v + "</td></tr>"; };
    row("op", n.kind == SnapNode::Kind::Output ? "output" : call ? "call_function" : "placeholder");
    if (call) row("target", "<code>" + q(n.op).toHtmlEscaped() + "</code>");
    row("shape", n.shape.empty() ? "—" : q(n.shape).toHtmlEscaped());
    row("dtype", n.dtype.empty() ? "—" : q(n.dtype));
    row("strides", n.strides.empty() ? "—" : q(n.strides));
    row("module", n.module.empty() ? "—" : q(n.module).toHtmlEscaped());
    QString src = "—";
    if (n.line > 0) {
        QString text = lineText_ ? lineText_(n.line).trimmed() : QString();
        src = QString("<a href=\"line:%1\">line %1</a>").arg(n.line) + (text.isEmpty() ? "" : ": <code>" + text.toHtmlEscaped() + "</code>");
    }
    row("source", src);
    row("inputs", links(n.inputs));
    row("users", links(users));
    trainingRows(captured, id, row);
    // the Kernels pane lists the entry's kernels, then the backward's
    const int kernelRow = kind_ == GraphKind::Captured ? n.kernel : kind_ == GraphKind::Backward && n.kernel >= 0 ? int(captured.kernels.size()) + n.kernel : -1;
    if (n.kernel >= 0 && size_t(n.kernel) < e.kernels.size()) {
        const auto& k = e.kernels[size_t(n.kernel)];
        const QString name = kernelRow >= 0 ? QString("<a href=\"kernel:%1\">%2</a>").arg(kernelRow).arg(q(k.name).toHtmlEscaped()) : q(k.name).toHtmlEscaped();
        row("kernel", QString("<span style='background:%1'>&nbsp;&nbsp;&nbsp;</span> %2 (%3)").arg(keyColour(n.kernel).name(), name, q(k.kind)));
    } else {
        row("kernel", "—");
    }
    // the fusion group after the last decision: the nodes one kernel computes together
    std::vector<int> group;
    if (!e.groupsAt.empty() && size_t(id) < e.groupsAt.back().size() && e.groupsAt.back()[size_t(id)] >= 0)
        for (size_t g = 0; g < e.groupsAt.back().size(); ++g)
            if (int(g) != id && e.groupsAt.back()[g] == e.groupsAt.back()[size_t(id)]) group.push_back(int(g));
    row("fusion group", group.empty() ? QString("alone") : QString("with %1").arg(links(group)));
    details_->setHtml(QString("<p><b>%1</b> &nbsp; <i>%2</i></p><table cellspacing=0 cellpadding=1>%3</table>")
                          .arg((saved ? "saved: " : "") + shown(n), saved ? "saved by the forward for the backward" : kinds[int(n.kind)], rows));
}

// What a node has to do with compiled training: a backward node's forward origin (a link that
// selects the forward node), a captured node's partition decision.
void GraphsPane::trainingRows(const SnapEntry& captured, int id, const std::function<void(const QString&, const QString&)>& row) const {
    const SnapTraining* t = captured.training.get();
    if (!t) return;
    auto forwardLink = [&](int f) {
        if (f < 0 || size_t(f) >= captured.nodes.size()) return QString("—");
        const SnapNode& n = captured.nodes[size_t(f)];
        const QString name = q(n.kind == SnapNode::Kind::Parameter ? parameterPath(n.name) : n.name).toHtmlEscaped();
        return QString("forward node <a href=\"forward:%1\">%2</a>%3").arg(f).arg(name).arg(n.line > 0 ? QString(", line %1").arg(n.line) : QString());
    };
    const size_t i = size_t(id);
    if (kind_ == GraphKind::Backward) {
        if (i < t->savedFrom.size() && t->savedFrom[i] >= 0) row("saved from", forwardLink(t->savedFrom[i]));
        if (i < t->recomputedFrom.size() && t->recomputedFrom[i] >= 0) row("recomputes", forwardLink(t->recomputedFrom[i]));
        if (i < t->tangentOf.size() && t->tangentOf[i] >= 0) row("grad of", QString("output %1 of the forward").arg(t->tangentOf[i]));
        return;
    }
    if (kind_ != GraphKind::Captured) return;
    for (const inspect::SnapPartition& d : t->decisions)
        if (d.node == id)
            row("for backward", QString("<b>%1</b>%2: %3").arg(d.saved ? "saved" : "recomputed", d.bytes ? " (" + bytesText(d.bytes) + ")" : QString(),
                                                              q(d.reason).toHtmlEscaped()));
}

const SnapEntry* GraphsPane::shownGraph() const {
    if (!snap_ || current_ < 0 || size_t(current_) >= snap_->entries.size()) return nullptr;
    return graphOf(snap_->entries[size_t(current_)], kind_);
}

void GraphsPane::setGraphKind(GraphKind kind) {
    if (!snap_ || current_ < 0) return;
    if (!graphOf(snap_->entries[size_t(current_)], kind)) kind = GraphKind::Captured;
    {
        QSignalBlocker b(graphTabs_);
        graphTabs_->setCurrentIndex(int(kind));
    }
    if (kind == kind_) return;
    kind_ = kind;
    drawGraph();
    Q_EMIT graphKindChanged(kind_);
}

// The caption's line about compiled training: eager or compiled, what is saved and recomputed.
QString GraphsPane::trainingCaption(const SnapEntry& e) const {
    const SnapTraining* t = e.training.get();
    if (!t) return QString();
    if (!t->compiled) return "<br>Training: <span style='color:#b26a00'>the backward runs eagerly</span>: " + q(t->why).toHtmlEscaped();
    int saved = 0, recomputed = 0;
    int64_t bytes = 0;
    for (const auto& d : t->decisions) {
        (d.saved ? saved : recomputed)++;
        if (d.saved) bytes += d.bytes;
    }
    int bk = 0;
    for (const auto& k : t->backward.kernels) bk += k.kind == "kernel";
    return QString("<br>Training: compiled backward, %1 ops; %2 values saved (%3), %4 recomputed; %5; %6 calls with grad, %7 backward() calls")
        .arg(t->backward.ops).arg(saved).arg(bytesText(bytes)).arg(recomputed)
        .arg(t->backward.status == "compiled" ? QString("%1 backward kernels").arg(bk) : QString("backward not compiled yet (no backward() ran)"))
        .arg(t->calls).arg(t->backwardCalls);
}

void GraphsPane::drawGraph() {
    const SnapEntry& e = snap_->entries[size_t(current_)];
    const SnapEntry* g = graphOf(e, kind_);
    if (!g) g = &e, kind_ = GraphKind::Captured;
    const GraphData data = kind_ == GraphKind::Backward ? backwardGraphDataOf(e) : graphDataOf(*g);
    // the graph already drawn, now with its kernels: recoloured in place, no layout
    if (!refining_ || !graph_->updateGraph(data)) graph_->setGraph(data);
    graph_->setGroups(colourKeysAt(*g, int(g->groupsAt.size()) - 1));
    legend_->setTraining(kind_ != GraphKind::Captured);
    showNodeDetails(-1);
}

void GraphsPane::selectEntry(int index) {
    if (!snap_ || index < 0 || size_t(index) >= snap_->entries.size()) return;
    bool changed = index != current_;
    current_ = index;
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        if ((*it)->data(0, Qt::UserRole).toInt() == index && tree_->currentItem() != *it) {
            QSignalBlocker b(tree_);
            tree_->setCurrentItem(*it);
        }
    if (!changed) return;
    const SnapEntry& e = snap_->entries[size_t(index)];
    int kernels = 0, libs = 0, eager = 0;
    for (auto& k : e.kernels) (k.kind == "kernel" ? kernels : k.kind == "library" ? libs : eager)++;
    // a frame skipped for a break inside a loop has an empty graph: say why
    QString why;
    for (const auto& b : snap_->breaks)
        if (b.skippedFrame && b.id == e.id) {
            why = QString("<br>This frame runs eagerly: the graph break at line %1 (%2) is inside a loop, so torch.compile skips the "
                          "whole frame and captures no graph.")
                      .arg(b.line)
                      .arg(q(b.reason).toHtmlEscaped());
            break;
        }
    if (e.pending)
        caption_->setText(QString("<b>%1</b> %2 &nbsp; %3 ops; <i>%4</i>").arg(q(e.id), frameName(e).toHtmlEscaped()).arg(e.ops).arg(pendingText(*snap_)));
    else
        caption_->setText(QString("<b>%1</b> %2 &nbsp; %3 ops, %4 kernels, %5 library calls, %6 eager ops%7%8%9")
                              .arg(q(e.id), frameName(e).toHtmlEscaped())
                              .arg(e.ops).arg(kernels).arg(libs).arg(eager)
                              .arg(e.status == "compiled" ? "" : " — " + q(e.status), why, trainingCaption(e)));
    // the same graph of the next entry when it has one (stepping entries keeps the backward shown)
    graphTabs_->setVisible(e.training && graphOf(e, GraphKind::Backward));
    if (!graphOf(e, kind_)) kind_ = GraphKind::Captured;
    {
        QSignalBlocker b(graphTabs_);
        graphTabs_->setCurrentIndex(int(kind_));
    }
    drawGraph();
    Q_EMIT entrySelected(index);
}

// ---------------------------------------------------------------- guards

GuardsPane::GuardsPane(QWidget* parent) : QWidget(parent) {
    tree_ = new QTreeWidget(this);
    tree_->setObjectName("guardTree");
    tree_->setHeaderLabels({"Guard / recompile", "Line"});
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    // one line a row: a guard too long for the pane is cut at its end ("DICT_KEYS_MATCH: ...")
    // and shown whole in its tooltip (wrapped text in a one-line row lost its start)
    tree_->setWordWrap(false);
    tree_->setTextElideMode(Qt::ElideRight);
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(tree_);
    connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* it) {
        int line = it->data(1, Qt::UserRole).toInt();
        if (line > 0) Q_EMIT lineActivated(line);
    });
    connect(tree_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* it) {
        int line = it->data(1, Qt::UserRole).toInt();
        if (line > 0) Q_EMIT lineActivated(line);
    });
}

void GuardsPane::setSnapshot(SnapshotP s) {
    snap_ = std::move(s);
    tree_->clear();
    // the items are made apart from the tree and added in one go: one at a time into the shown
    // tree, a 12-layer transformer's guards held the UI thread for 40-60 ms
    QList<QTreeWidgetItem*> top;
    auto addLine = [](QTreeWidgetItem* it, int line) {
        it->setData(1, Qt::UserRole, line);
        if (line > 0) it->setText(1, QString::number(line));
    };
    if (!snap_->recompiles.empty()) {
        auto* rec = new QTreeWidgetItem(QStringList{QString("Recompiles (%1)").arg(snap_->recompiles.size())});
        top << rec;
        rec->setData(0, Qt::UserRole, -2);
        QFont bold = rec->font(0);
        bold.setBold(true);
        rec->setFont(0, bold);
        for (auto& r : snap_->recompiles) {
            QString head = r.limitHit ? QString("%1 %2: recompile limit (8) hit; later misses run eagerly").arg(q(r.id), q(r.function))
                                      : QString("%1 %2: recompiled because the cached entries' guards failed").arg(q(r.id), q(r.function));
            if (r.callLine > 0) head += QString(" (the call at line %1)").arg(r.callLine);
            for (const std::string& c : r.changed) head += "; " + q(c);
            auto* it = new QTreeWidgetItem(rec, {head});
            it->setToolTip(0, head);
            it->setForeground(0, QColor("#b26a00"));
            int firstLine = 0;
            for (size_t i = 0; i < r.reasons.size(); ++i) {
                int line = i < r.guardLines.size() ? r.guardLines[i] : 0;
                if (!firstLine) firstLine = line;
                auto* c = new QTreeWidgetItem(it, {"failed: " + q(r.reasons[i])});
                c->setToolTip(0, q(r.reasons[i]) + (i < r.userLines.size() && !r.userLines[i].empty() ? "\nguard created at " + q(r.userLines[i]) : ""));
                addLine(c, line);
            }
            addLine(it, firstLine);
        }
    }
    for (size_t i = 0; i < snap_->entries.size(); ++i) {
        const SnapEntry& e = snap_->entries[i];
        auto* it = new QTreeWidgetItem(QStringList{QString("%1 %2 — %3 guards").arg(q(e.id), q(e.function)).arg(e.guards.size())});
        top << it;
        it->setData(0, Qt::UserRole, int(i));
        // a frame of the prelude (a compiled nn.Sequential runs Sequential.forward) has no line in
        // the script: its line would select an unrelated one
        const bool inScript = QFileInfo(q(e.file)).fileName() == QFileInfo(q(snap_->file)).fileName();
        addLine(it, inScript ? e.line : 0);
        it->setToolTip(0, inScript ? it->text(0) : it->text(0) + QString("\nthe frame is %1, line %2").arg(q(e.file)).arg(e.line));
        for (auto& g : e.guards) {
            auto* c = new QTreeWidgetItem(it, {q(g.text)});
            c->setToolTip(0, q(g.text) + (g.userLine.empty() ? "" : "\n" + q(g.userLine)));
            addLine(c, g.line);
        }
    }
    tree_->addTopLevelItems(top);
    tree_->expandToDepth(0);
    // Recompiles open down to their failed guards.
    for (int i = 0; i < tree_->topLevelItemCount(); ++i)
        if (tree_->topLevelItem(i)->data(0, Qt::UserRole).toInt() == -2) tree_->expandItem(tree_->topLevelItem(i)), tree_->expandRecursively(tree_->model()->index(i, 0));
}

void GuardsPane::showEntry(int index) {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* it = tree_->topLevelItem(i);
        if (it->data(0, Qt::UserRole).toInt() == index) {
            it->setExpanded(true);
            tree_->scrollToItem(it, QAbstractItemView::PositionAtTop);
            QSignalBlocker b(tree_);
            tree_->setCurrentItem(it);
        }
    }
}

void GuardsPane::showRecompile(int index) {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* rec = tree_->topLevelItem(i);
        if (rec->data(0, Qt::UserRole).toInt() != -2 || index < 0 || index >= rec->childCount()) continue;
        QSignalBlocker b(tree_);
        tree_->setCurrentItem(rec->child(index));
        tree_->scrollToItem(rec->child(index));
    }
}

void GuardsPane::showRecompileAt(int line) {
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        if ((*it)->parent() && (*it)->parent()->data(0, Qt::UserRole).toInt() == -2 && (*it)->data(1, Qt::UserRole).toInt() == line) {
            QSignalBlocker b(tree_);
            tree_->setCurrentItem(*it);
            tree_->scrollToItem(*it);
            return;
        }
}

// ---------------------------------------------------------------- kernels

KernelsPane::KernelsPane(QWidget* parent) : QWidget(parent) {
    // the run order above the code, so that the code has the pane's whole width beside the graph
    auto* split = new QSplitter(Qt::Vertical, this);
    list_ = new QListWidget(split);
    list_->setObjectName("kernelList");
    list_->setUniformItemSizes(true);
    auto* right = new QWidget(split);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    caption_ = captionLabel(right);
    tabs_ = new QTabWidget(right);
    code_ = new CodeView(tabs_);
    code_->setObjectName("kernelSource");
    code_->setReadOnly(true);
    ir_ = new QPlainTextEdit(tabs_);
    asm_ = new QPlainTextEdit(tabs_);
    for (QPlainTextEdit* t : {ir_, asm_}) {
        t->setReadOnly(true);
        t->setLineWrapMode(QPlainTextEdit::NoWrap);
        t->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    }
    new CodeHighlighter(code_->document(), CodeHighlighter::Language::Cpp);
    irHl_ = new CodeHighlighter(ir_->document(), CodeHighlighter::Language::LlvmIr);
    asmHl_ = new CodeHighlighter(asm_->document(), CodeHighlighter::Language::Assembly);
    tabs_->addTab(code_, "C++");
    tabs_->addTab(ir_, "LLVM IR");
    tabs_->addTab(asm_, "Assembly");
    rl->addWidget(caption_);
    rl->addWidget(tabs_, 1);
    split->setSizes({90, 700});
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(split);
    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row != kernel_) showKernel(row);
    });
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int i) { if (i > 0) showModuleText(); });
    connect(code_, &CodeView::lineClicked, this, [this](int line) {
        int index = -1;
        const SnapEntry* g = entryOfRow(kernel_, index);
        if (!g) return;
        const auto& k = g->kernels[size_t(index)];
        if (line - 1 >= int(k.lineNodes.size()) || k.lineNodes[size_t(line - 1)].empty()) return;
        if (isBackwardRow(kernel_)) Q_EMIT backwardNodesActivated(k.lineNodes[size_t(line - 1)]);
        else Q_EMIT nodesActivated(k.lineNodes[size_t(line - 1)]);
    });
}

void KernelsPane::setSnapshot(SnapshotP s) {
    snap_ = std::move(s);
    entry_ = kernel_ = -1;
    setEntry(snap_->entries.empty() ? -1 : 0);
}

void KernelsPane::setEntry(int index) {
    if (!snap_) return;
    entry_ = index;
    kernel_ = -1;
    QSignalBlocker b(list_);
    list_->clear();
    code_->clear();
    ir_->clear();
    asm_->clear();
    if (index < 0 || size_t(index) >= snap_->entries.size()) {
        caption_->setText("No compiled graph selected.");
        return;
    }
    const SnapEntry& e = snap_->entries[size_t(index)];
    if (e.pending) { // captured, being compiled: the kernels come with the run's end
        caption_->setText("<b>" + pendingText(*snap_) + "</b><br>The kernels of " + q(e.id) +
                          " are listed here when they are compiled; the graph and its guards are shown already.");
        auto* it = new QListWidgetItem(pendingText(*snap_), list_);
        it->setFlags(Qt::NoItemFlags);
        return;
    }
    for (size_t k = 0; k < e.kernels.size(); ++k) {
        const auto& kn = e.kernels[k];
        QString lines;
        for (int l : kn.lines) lines += (lines.isEmpty() ? "" : ",") + QString::number(l);
        auto* it = new QListWidgetItem(QString("%1  %2").arg(q(kn.name)).arg(kn.kind == "kernel" ? "" : "(" + q(kn.kind) + ")"), list_);
        it->setToolTip(lines.isEmpty() ? q(kn.name) : q(kn.name) + "\nscript lines " + lines);
        QPixmap swatch(12, 12);
        swatch.fill(keyColour(int(k)));
        it->setIcon(QIcon(swatch));
    }
    // the backward's kernels after the forward's, marked
    if (const inspect::SnapTraining* t = e.training.get(); t && t->compiled) {
        for (size_t k = 0; k < t->backward.kernels.size(); ++k) {
            const auto& kn = t->backward.kernels[k];
            auto* it = new QListWidgetItem(QString("%1  (backward%2)").arg(q(kn.name), kn.kind == "kernel" ? "" : ", " + q(kn.kind)), list_);
            it->setToolTip(q(kn.name) + "\nof the backward graph (compiled at the first backward())");
            it->setForeground(QColor("#7b1fa2"));
            QPixmap swatch(12, 12);
            swatch.fill(keyColour(int(k)));
            it->setIcon(QIcon(swatch));
        }
        if (t->backward.status != "compiled") {
            auto* it = new QListWidgetItem("backward: not compiled yet (it is compiled at the first backward())", list_);
            it->setFlags(Qt::NoItemFlags);
        }
    }
    irShown_ = false;
    if (tabs_->currentIndex() > 0) showModuleText();
    if (e.kernels.empty()) {
        caption_->setText(e.status == "compiled" ? "This graph has no kernels." + (e.note.empty() ? QString() : " " + q(e.note))
                                                 : "Status " + q(e.status) + ": nothing was compiled.");
        return;
    }
    b.unblock();
    // Open on the first generated kernel (library calls and eager ops have no code to read).
    int first = 0;
    for (size_t k = 0; k < e.kernels.size(); ++k)
        if (e.kernels[k].kind == "kernel") { first = int(k); break; }
    showKernel(first);
}

const SnapEntry* KernelsPane::entryOfRow(int row, int& k) const {
    k = -1;
    if (!snap_ || entry_ < 0 || row < 0) return nullptr;
    const SnapEntry& e = snap_->entries[size_t(entry_)];
    if (size_t(row) < e.kernels.size()) { k = row; return &e; }
    const inspect::SnapTraining* t = e.training.get();
    const size_t b = size_t(row) - e.kernels.size();
    if (!t || !t->compiled || b >= t->backward.kernels.size()) return nullptr;
    k = int(b);
    return &t->backward;
}

bool KernelsPane::isBackwardRow(int row) const {
    int k;
    return entryOfRow(row, k) && size_t(row) >= snap_->entries[size_t(entry_)].kernels.size();
}

int KernelsPane::backwardRow(int k) const {
    if (!snap_ || entry_ < 0) return -1;
    int row = int(snap_->entries[size_t(entry_)].kernels.size()) + k, index;
    return k >= 0 && entryOfRow(row, index) ? row : -1;
}

void KernelsPane::showKernel(int k, const std::vector<int>& nodes) {
    int index = -1;
    const SnapEntry* g = entryOfRow(k, index);
    if (!g) return;
    const SnapEntry& e = *g;
    const auto& kn = e.kernels[size_t(index)];
    if (k != kernel_) {
        kernel_ = k;
        {
            QSignalBlocker b(list_);
            list_->setCurrentRow(k);
        }
        code_->setPlainText(q(kn.source));
        foldMathHelpers();
        QString lines;
        for (int l : kn.lines) lines += (lines.isEmpty() ? "" : ", ") + QString::number(l);
        QString how = e.backend == "disk" ? "loaded from the disk cache"
                      : e.backend.empty() ? "not compiled"
                                          : "compiled by " + q(e.backend) + (e.cache == "miss" ? "" : " (" + q(e.cache) + " cache)");
        caption_->setText(QString("%6<b>%1</b> (%2) — %3 graph nodes%4; %5")
                              .arg(q(kn.name).toHtmlEscaped(), q(kn.kind))
                              .arg(kn.nodes.size())
                              .arg(lines.isEmpty() ? "" : ", script lines " + lines)
                              .arg(how, &e == &snap_->entries[size_t(entry_)] ? QString() : QString("<span style='color:#7b1fa2'>backward</span> ")));
    }
    QList<int> hl;
    for (size_t i = 0; i < kn.lineNodes.size(); ++i)
        for (int n : nodes)
            if (std::find(kn.lineNodes[i].begin(), kn.lineNodes[i].end(), n) != kn.lineNodes[i].end()) { hl << int(i) + 1; break; }
    code_->setHighlightedLines(hl);
}

// The math helpers at the top of a kernel (static inline fl_exp_poly, fl_gelu, ...) are the same
// in every kernel that needs them: folded, so the kernel's own loops come first.
void KernelsPane::foldMathHelpers() {
    const QStringList lines = code_->toPlainText().split('\n');
    int first = 0, last = 0;
    QStringList names;
    static const QRegularExpression helper("^static inline [^(]*\\b(fl_[A-Za-z0-9_]+)\\(");
    for (int i = 0; i < lines.size(); ++i) {
        const QString& l = lines[i];
        if (QRegularExpressionMatch m = helper.match(l); m.hasMatch()) {
            if (!first) first = i + 1;
            names << m.captured(1);
            if (l.trimmed().endsWith("}")) last = i + 1; // a one-line helper
            continue;
        }
        if (!first) continue;
        if (l.startsWith("static ") || l.startsWith("extern ")) break; // the kernel itself
        if (l.startsWith("}")) last = i + 1;
    }
    if (!first || last <= first) { code_->setFoldRegion(0, 0, {}); return; }
    QString label = QString("%1 math helper%2: %3").arg(names.size()).arg(names.size() == 1 ? "" : "s")
                        .arg(names.size() > 4 ? names.mid(0, 4).join(", ") + ", …" : names.join(", "));
    code_->setFoldRegion(first, last, label);
    code_->setFolded(true);
}

// LLVM IR and assembly cover the whole module and can run to megabytes: they are put into
// their views only when one of those tabs is opened.
void KernelsPane::showModuleText() {
    if (irShown_ || !snap_ || entry_ < 0) return;
    irShown_ = true;
    const SnapEntry& e = snap_->entries[size_t(entry_)];
    // colours only where they cost little: a big graph's module runs to megabytes
    constexpr size_t kColourLimit = 400000;
    irHl_->setDocument(e.ir.size() < kColourLimit ? ir_->document() : nullptr);
    asmHl_->setDocument(e.assembly.size() < kColourLimit ? asm_->document() : nullptr);
    ir_->setPlainText(e.ir.empty() ? "(LLVM IR is shown when the in-process LLVM backend compiled this graph; it was compiled by " + q(e.backend) + ")" : q(e.ir));
    asm_->setPlainText(e.assembly.empty() ? "(no assembly available)" : q(e.assembly));
}

QList<int> KernelsPane::highlightedLines() const { return code_->highlightedLines(); }

// ---------------------------------------------------------------- fusion

FusionPane::FusionPane(QWidget* parent) : QWidget(parent) {
    auto* split = new QSplitter(Qt::Horizontal, this);
    graph_ = new GraphView(split);
    graph_->setObjectName("fusionGraph");
    auto* side = new QWidget(split);
    auto* sl = new QVBoxLayout(side);
    sl->setContentsMargins(4, 0, 0, 0);
    auto* buttons = new QHBoxLayout;
    first_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaSkipBackward), "", side);
    prev_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaSeekBackward), "", side);
    next_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaSeekForward), "", side);
    last_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaSkipForward), "", side);
    first_->setToolTip("First step: before any fusion (Alt+Home)");
    prev_->setToolTip("Previous decision (Alt+Left)");
    next_->setToolTip("Next decision (Alt+Right)");
    last_->setToolTip("Last step: the final kernels (Alt+End)");
    for (QPushButton* b : {first_, prev_, next_, last_}) { b->setFixedWidth(40); buttons->addWidget(b); }
    position_ = new QLabel(side);
    buttons->addWidget(position_, 1);
    slider_ = new QSlider(Qt::Horizontal, side);
    slider_->setObjectName("fusionSlider");
    slider_->setPageStep(1);
    text_ = new QTextBrowser(side);
    text_->setObjectName("fusionText");
    list_ = new QListWidget(side);
    list_->setObjectName("fusionList");
    list_->setUniformItemSizes(true); // big graphs have thousands of decisions
    sl->addLayout(buttons);
    sl->addWidget(slider_);
    sl->addWidget(text_, 2);
    auto* filters = new QHBoxLayout;
    filters->addWidget(new QLabel("Decisions:", side));
    rejectedOnly_ = new QCheckBox("rejected only", side);
    rejectedOnly_->setObjectName("fusionRejectedOnly");
    rejectedOnly_->setToolTip("Show only the pairs the scheduler kept apart, and why");
    involving_ = new QCheckBox("involving the selected node", side);
    involving_->setObjectName("fusionInvolvingSelected");
    involving_->setToolTip("Show only the decisions whose pair holds the node selected in a graph");
    filters->addWidget(rejectedOnly_);
    filters->addWidget(involving_);
    filters->addStretch(1);
    sl->addLayout(filters);
    sl->addWidget(list_, 3);
    connect(rejectedOnly_, &QCheckBox::toggled, this, [this] { applyFilter(); });
    connect(involving_, &QCheckBox::toggled, this, [this] { applyFilter(); });
    split->setSizes({600, 360});
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(split);
    connect(first_, &QPushButton::clicked, this, &FusionPane::first);
    connect(prev_, &QPushButton::clicked, this, &FusionPane::previous);
    connect(next_, &QPushButton::clicked, this, &FusionPane::next);
    connect(last_, &QPushButton::clicked, this, &FusionPane::last);
    connect(slider_, &QSlider::valueChanged, this, [this](int v) { setStep(v); });
    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) { if (row >= 0) setStep(row + 1); });
}

void FusionPane::setSnapshot(SnapshotP s) {
    snap_ = std::move(s);
    entry_ = -1;
    setEntry(snap_->entries.empty() ? -1 : 0);
}

int FusionPane::stepCount() const {
    if (!snap_ || entry_ < 0) return 1;
    return int(snap_->entries[size_t(entry_)].decisions.size()) + 1;
}

void FusionPane::setEntry(int index) {
    if (!snap_ || index == entry_) return;
    entry_ = index < 0 || size_t(index) >= snap_->entries.size() ? -1 : index;
    {  
        QSignalBlocker b(list_);
        list_->clear();
        // the rows made first, then added in one go (a 12-layer model has hundreds of decisions)
        QStringList rows;
        const auto* decisions = entry_ >= 0 ? &snap_->entries[size_t(entry_)].decisions : nullptr;
        if (decisions)
            for (auto& d : *decisions)
                rows << QString("%1. [%2] %3 — %4").arg(d.step + 1).arg(q(d.kind), pairName(snap_->entries[size_t(entry_)], d), d.fused ? "fused" : "kept apart");
        list_->addItems(rows);
        for (int i = 0; decisions && i < list_->count(); ++i) {
            const auto& d = (*decisions)[size_t(i)];
            QListWidgetItem* it = list_->item(i);
            it->setToolTip(QString("%1 | %2\n%3").arg(q(d.a), q(d.b), q(d.reason)));
            if (!d.fused) it->setForeground(QColor("#b26a00"));
        }
    }
    { applyFilter(); }
    // a graph being compiled has no decisions yet: not drawn (one layout, when they come)
    const bool pending = entry_ >= 0 && snap_->entries[size_t(entry_)].pending;
    graph_->setGraph(entry_ >= 0 && !pending ? graphDataOf(snap_->entries[size_t(entry_)]) : GraphData{});
    step_ = -1;
   
    setStep(stepCount() - 1);
}

void FusionPane::setStep(int step) {
    step = std::clamp(step, 0, stepCount() - 1);
    if (step == step_) return;
    step_ = step;
    refresh();
    Q_EMIT stepChanged(step_);
}

QString FusionPane::decisionText() const { return text_->toPlainText(); }

QString FusionPane::pairName(const SnapEntry& e, const inspect::SnapDecision& d) {
    auto side = [&](const std::vector<int>& nodes) {
        const SnapNode* last = nullptr;
        int count = 0;
        for (int id : nodes)
            if (id >= 0 && size_t(id) < e.nodes.size()) last = &e.nodes[size_t(id)], ++count;
        if (!last) return QString("?");
        // a side that earlier steps grew: its last node (the value it produces) and how many more
        QString name = q(last->name) + (last->module.empty() ? QString() : "[" + q(last->module) + "]");
        return count == 1 ? name : QString("%1 (+%2)").arg(name).arg(count - 1);
    };
    QString a = side(d.aNodes), b = side(d.bNodes);
    if (a == b) { // two parts of one decomposed node (layer_norm's sum and var): name the parts
        // the side's last buffer, "buf7(layer_norm)": its op, or the buffer too if the ops match
        auto last = [](const std::string& desc) { return q(desc).section(" + ", -1); };
        auto op = [](const QString& buf) { return buf.section('(', 1).section(')', 0, 0); };
        QString la = last(d.a), lb = last(d.b);
        const bool sameOp = op(la) == op(lb);
        a += " (" + (sameOp ? la : op(la)) + ")", b += " (" + (sameOp ? lb : op(lb)) + ")";
    }
    return a + " + " + b;
}

bool FusionPane::passes(int decision) const {
    if (!snap_ || entry_ < 0) return true;
    const auto& d = snap_->entries[size_t(entry_)].decisions[size_t(decision)];
    if (rejectedOnly_->isChecked() && d.fused) return false;
    if (involving_->isChecked()) {
        auto has = [&](const std::vector<int>& v) { return std::find(v.begin(), v.end(), selectedNode_) != v.end(); };
        if (selectedNode_ < 0 || !(has(d.aNodes) || has(d.bNodes))) return false;
    }
    return true;
}

void FusionPane::applyFilter() {
    for (int i = 0; i < list_->count(); ++i) list_->setRowHidden(i, !passes(i));
    refresh();
}

void FusionPane::setRejectedOnly(bool on) { rejectedOnly_->setChecked(on); }
void FusionPane::setInvolvingSelected(bool on) { involving_->setChecked(on); }

void FusionPane::setSelectedNode(int id) {
    if (id == selectedNode_) return;
    selectedNode_ = id;
    if (involving_->isChecked()) applyFilter();
}

QStringList FusionPane::shownDecisions() const {
    QStringList out;
    for (int i = 0; i < list_->count(); ++i)
        if (!list_->isRowHidden(i)) out << list_->item(i)->text();
    return out;
}

void FusionPane::stepTo(int direction) {
    const bool filtered = rejectedOnly_->isChecked() || involving_->isChecked();
    if (!filtered) { setStep(step_ + direction); return; }
    // step s shows decision s - 1
    for (int s = step_ + direction; s >= 1 && s < stepCount(); s += direction)
        if (passes(s - 1)) { setStep(s); return; }
}

void FusionPane::refresh() {
    int n = stepCount() - 1;
    {
        QSignalBlocker b(slider_);
        slider_->setRange(0, n);
        slider_->setValue(step_);
    }
    {
        QSignalBlocker b(list_);
        list_->setCurrentRow(step_ - 1);
    }
    position_->setText(QString("step %1 of %2").arg(step_).arg(n));
    bool before = false, after = false; // a decision the filter passes on either side
    for (int s = 1; s <= n; ++s) {
        if (!passes(s - 1)) continue;
        if (s < step_) before = true;
        if (s > step_) after = true;
    }
    const bool filtered = rejectedOnly_->isChecked() || involving_->isChecked();
    first_->setEnabled(step_ > 0);
    prev_->setEnabled(filtered ? before : step_ > 0);
    next_->setEnabled(filtered ? after : step_ < n);
    last_->setEnabled(step_ < n);
    if (entry_ < 0) {
        text_->setHtml("<p>No compiled graph selected.</p>");
        return;
    }
    const SnapEntry& e = snap_->entries[size_t(entry_)];
    if (e.pending) {
        text_->setHtml("<p><b>" + pendingText(*snap_).toHtmlEscaped() + "</b></p><p>The scheduler's fusion decisions for " + q(e.id) +
                       " are shown here when its kernels are compiled.</p>");
        return;
    }
    std::vector<int> keys = colourKeysAt(e, step_);
    graph_->setGroups(keys);
    std::vector<int> distinct;
    for (int k : keys)
        if (k >= 0 && std::find(distinct.begin(), distinct.end(), k) == distinct.end()) distinct.push_back(k);
    QString html;
    if (n == 0) {
        html = "<p>The scheduler considered no pairs in this graph: each compute node is its own kernel.</p>";
    } else if (step_ == 0) {
        html = QString("<p><b>Before fusion</b>: every compute node starts as its own group (%1 groups, library calls alone). "
                       "Step forward to replay the scheduler's %2 decisions.</p>").arg(distinct.size()).arg(n);
    } else {
        const auto& d = e.decisions[size_t(step_ - 1)];
        html = QString("<p><b>Decision %1 of %2</b> — %3 fusion %4.</p>"
                       "<p>Pair: <b>%12</b> (<code>%5</code> with <code>%6</code>)</p>"
                       "<p>Score %7; fusing saves about %8 of memory traffic.</p>"
                       "<p><b>Verdict</b>: %9</p><p>%10</p><p>%11 groups after this step.</p>")
                   .arg(step_).arg(n).arg(q(d.kind))
                   .arg(d.fused ? "<span style='color:#2e7d32'>accepted</span>" : "<span style='color:#b26a00'>rejected</span>")
                   .arg(q(d.a).toHtmlEscaped(), q(d.b).toHtmlEscaped())
                   .arg(d.score, 0, 'f', 0).arg(bytesText(d.bytesSaved))
                   .arg(d.fused ? "fused" : "kept apart")
                   .arg(q(d.reason).toHtmlEscaped())
                   .arg(distinct.size())
                   .arg(pairName(e, d).toHtmlEscaped());
        std::vector<int> pair = d.aNodes;
        pair.insert(pair.end(), d.bNodes.begin(), d.bNodes.end());
        // in view: the value of each side, as the pair is named (zoomed out if they lie far apart)
        std::vector<int> focus;
        for (const auto* side : {&d.aNodes, &d.bNodes})
            if (!side->empty()) focus.push_back(side->back());
        graph_->selectNodes(pair, focus);
    }
    text_->setHtml(html);
}

// ---------------------------------------------------------------- partition

namespace {
// A decided value as the graph names it: a parameter by its attribute path ("2.weight").
QString valueName(const SnapEntry& e, const inspect::SnapPartition& d) {
    if (d.node >= 0 && size_t(d.node) < e.nodes.size() && e.nodes[size_t(d.node)].kind == SnapNode::Kind::Parameter)
        return q(parameterPath(d.name));
    return q(d.name);
}
} // namespace

PartitionPane::PartitionPane(QWidget* parent) : QWidget(parent) {
    auto* split = new QSplitter(Qt::Horizontal, this);
    graph_ = new GraphView(split);
    graph_->setObjectName("partitionGraph");
    auto* side = new QWidget(split);
    auto* sl = new QVBoxLayout(side);
    sl->setContentsMargins(4, 0, 0, 0);
    summary_ = captionLabel(side);
    summary_->setObjectName("partitionSummary");
    auto* buttons = new QHBoxLayout;
    first_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaSkipBackward), "", side);
    prev_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaSeekBackward), "", side);
    next_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaSeekForward), "", side);
    last_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaSkipForward), "", side);
    first_->setToolTip("Before any decision");
    prev_->setToolTip("Previous decision");
    next_->setToolTip("Next decision");
    last_->setToolTip("The last decision: the partition the backward uses");
    for (QPushButton* b : {first_, prev_, next_, last_}) { b->setFixedWidth(40); buttons->addWidget(b); }
    position_ = new QLabel(side);
    buttons->addWidget(position_, 1);
    slider_ = new QSlider(Qt::Horizontal, side);
    slider_->setObjectName("partitionSlider");
    slider_->setPageStep(1);
    text_ = new QTextBrowser(side);
    text_->setObjectName("partitionText");
    list_ = new QListWidget(side);
    list_->setObjectName("partitionList");
    list_->setUniformItemSizes(true);
    sl->addWidget(summary_);
    sl->addLayout(buttons);
    sl->addWidget(slider_);
    sl->addWidget(text_, 2);
    sl->addWidget(list_, 3);
    split->setSizes({600, 420});
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(split);
    connect(first_, &QPushButton::clicked, this, &PartitionPane::first);
    connect(prev_, &QPushButton::clicked, this, &PartitionPane::previous);
    connect(next_, &QPushButton::clicked, this, &PartitionPane::next);
    connect(last_, &QPushButton::clicked, this, &PartitionPane::last);
    connect(slider_, &QSlider::valueChanged, this, [this](int v) { setStep(v); });
    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) { if (row >= 0) setStep(row + 1); });
}

void PartitionPane::setSnapshot(SnapshotP s) {
    snap_ = std::move(s);
    entry_ = -2; // setEntry redraws even the same index
    setEntry(snap_->entries.empty() ? -1 : 0);
}

int PartitionPane::stepCount() const {
    if (!snap_ || entry_ < 0 || !snap_->entries[size_t(entry_)].training) return 1;
    return int(snap_->entries[size_t(entry_)].training->decisions.size()) + 1;
}

void PartitionPane::setEntry(int index) {
    if (!snap_ || index == entry_) return;
    entry_ = index < 0 || size_t(index) >= snap_->entries.size() ? -1 : index;
    const SnapEntry* e = entry_ >= 0 ? &snap_->entries[size_t(entry_)] : nullptr;
    const SnapTraining* t = e ? e->training.get() : nullptr;
    {
        QSignalBlocker b(list_);
        list_->clear();
        if (t)
            for (size_t i = 0; i < t->decisions.size(); ++i) {
                const auto& d = t->decisions[i];
                auto* it = new QListWidgetItem(QString("%1. %2 — %3%4").arg(i + 1).arg(valueName(*e, d), d.saved ? "saved" : "recomputed",
                                                                                   d.bytes ? " (" + bytesText(d.bytes) + ")" : QString()), list_);
                it->setToolTip(q(d.reason));
                QPixmap swatch(12, 12);
                swatch.fill(keyColour(d.saved ? kSavedKey : kRecomputedKey));
                it->setIcon(QIcon(swatch));
            }
    }
    int saved = 0, recomputed = 0;
    int64_t bytes = 0;
    if (t)
        for (const auto& d : t->decisions) (d.saved ? saved : recomputed)++, bytes += d.saved ? d.bytes : 0;
    summary_->setText(!e ? "No compiled graph selected."
                      : e->pending ? "<b>" + pendingText(*snap_).toHtmlEscaped() + "</b>: the training partition is shown when it is compiled."
                      : !t ? "This graph has no compiled training: no input of it requires grad (or it was called without grad)."
                      : !t->compiled ? "<b>Training runs its backward eagerly</b>: " + q(t->why).toHtmlEscaped()
                      : QString("<b>%1</b>: the backward reads %2 forward values; <span style='background:%3'>&nbsp;%4 saved&nbsp;</span> (%5 kept "
                                "from forward to backward), <span style='background:%6'>&nbsp;%7 recomputed&nbsp;</span> in the backward.")
                            .arg(q(e->id)).arg(saved + recomputed).arg(keyColour(kSavedKey).name()).arg(saved).arg(bytesText(bytes))
                            .arg(keyColour(kRecomputedKey).name()).arg(recomputed));
    graph_->setGraph(t ? graphDataOf(*e) : GraphData{});
    step_ = -1;
    setStep(stepCount() - 1);
}

void PartitionPane::setStep(int step) {
    step = std::clamp(step, 0, stepCount() - 1);
    if (step == step_) return;
    step_ = step;
    refresh();
    Q_EMIT stepChanged(step_);
}

QString PartitionPane::decisionText() const { return text_->toPlainText(); }
QString PartitionPane::summary() const { return summary_->text(); }

void PartitionPane::refresh() {
    const int n = stepCount() - 1;
    {
        QSignalBlocker b(slider_);
        slider_->setRange(0, n);
        slider_->setValue(step_);
    }
    {
        QSignalBlocker b(list_);
        list_->setCurrentRow(step_ - 1);
    }
    position_->setText(QString("decision %1 of %2").arg(step_).arg(n));
    first_->setEnabled(step_ > 0);
    prev_->setEnabled(step_ > 0);
    next_->setEnabled(step_ < n);
    last_->setEnabled(step_ < n);
    const SnapTraining* t = entry_ >= 0 ? snap_->entries[size_t(entry_)].training.get() : nullptr;
    if (entry_ >= 0 && snap_->entries[size_t(entry_)].pending) {
        text_->setHtml("<p><b>" + pendingText(*snap_).toHtmlEscaped() + "</b></p>");
        graph_->setGroups({});
        return;
    }
    if (!t || n == 0) {
        text_->setHtml(t ? "<p>The backward reads no forward value.</p>" : "<p>Open a script that trains a compiled model (calls it with "
                                                                          "inputs or parameters that require grad, then backward()).</p>");
        graph_->setGroups({});
        return;
    }
    // the captured graph coloured by the decisions so far
    const SnapEntry& e = snap_->entries[size_t(entry_)];
    std::vector<int> keys(e.nodes.size(), -1);
    for (int s = 0; s < step_; ++s) {
        const auto& d = t->decisions[size_t(s)];
        if (d.node >= 0 && size_t(d.node) < keys.size()) keys[size_t(d.node)] = d.saved ? kSavedKey : kRecomputedKey;
    }
    graph_->setGroups(keys);
    if (step_ == 0) {
        text_->setHtml(QString("<p><b>Before the partition</b>: the joint graph's backward reads values of the forward. For each, in order "
                               "(%1 decisions), the partitioner decides: save it (the forward returns it and it stays alive until backward) "
                               "or recompute it in the backward from values that are saved anyway.</p>").arg(n));
        return;
    }
    const auto& d = t->decisions[size_t(step_ - 1)];
    QString where;
    if (d.node >= 0 && size_t(d.node) < e.nodes.size()) {
        const SnapNode& fn = e.nodes[size_t(d.node)];
        where = QString("forward node <b>%1</b> (%2%3)").arg(q(fn.name).toHtmlEscaped() + (fn.kind == SnapNode::Kind::Parameter ? ", a parameter" : fn.kind == SnapNode::Kind::Input ? ", an input" : ""), q(fn.shape).toHtmlEscaped(),
                                                             fn.line > 0 ? QString(", line %1").arg(fn.line) : QString());
    }
    text_->setHtml(QString("<p><b>Decision %1 of %2</b>: <code>%3</code> is <span style='background:%4'>&nbsp;<b>%5</b>&nbsp;</span></p>"
                           "<p>%6%7</p><p><b>Why</b>: %8</p>")
                       .arg(step_).arg(n).arg(valueName(e, d).toHtmlEscaped(), keyColour(d.saved ? kSavedKey : kRecomputedKey).name(),
                                              d.saved ? "saved for the backward" : "recomputed in the backward", where,
                                              d.bytes ? QString("; %1").arg(bytesText(d.bytes)) : QString(), q(d.reason).toHtmlEscaped()));
    if (d.node >= 0) graph_->selectNodes({d.node});
}

} // namespace fl::viz
