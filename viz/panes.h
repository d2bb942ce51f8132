// The explorer's panes over a run's snapshot (core/inspect/snapshot.h): compiled frames and their
// graphs, guards and recompiles, kernels, and the fusion stepper. Each pane draws from the
// snapshot it is given and reports what the user picked (an entry, nodes, a script line); the
// main window links the picks across panes.
#pragma once

#include <QColor>
#include <QList>
#include <QWidget>
#include <functional>
#include <memory>
#include <vector>

#include "core/inspect/snapshot.h"
#include "viz/graph_data.h"

class QCheckBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSlider;
class QTabBar;
class QTabWidget;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace fl::viz {

class CodeHighlighter;
class CodeView;
class GraphLegend;
class GraphView;

using SnapshotP = std::shared_ptr<const inspect::Snapshot>;

// The graph a snapshot entry draws.
GraphData graphDataOf(const inspect::SnapEntry& e);

// Which of an entry's graphs the Graphs pane draws: the captured forward, or (an entry with
// compiled training) the training forward, the backward or the joint graph.
enum class GraphKind { Captured, TrainingForward, Backward, Joint };
// The snapshot entry that holds that graph's nodes (null: the entry has no such graph).
const inspect::SnapEntry* graphOf(const inspect::SnapEntry& e, GraphKind kind);
// The backward graph drawn with its bridge to the forward: saved values (named "saved: <the
// forward node>") and recomputed forward nodes styled apart.
GraphData backwardGraphDataOf(const inspect::SnapEntry& e);
// Colour keys of each graph node after `step` fusion decisions: a group that is (or contains the
// first node of) a final kernel takes that kernel's index, so the colours settle on the kernels'
// as the steps go; other partial groups get keys of their own; -1 for nodes outside every group.
std::vector<int> colourKeysAt(const inspect::SnapEntry& e, int step);
// A frame as the entry list names it: "Block.forward:38", "resume in Block.forward at 41".
QString frameName(const inspect::SnapEntry& e);
// What a pane waiting for a partial snapshot's kernels says: "Compiling kernels… (graph 1 of 2
// captured so far)".
QString pendingText(const inspect::Snapshot& s);
// The fill colour of a colour key (the graph view's, the source tints' and the kernel list's).
QColor keyColour(int key);

class GraphsPane : public QWidget {
    Q_OBJECT
public:
    explicit GraphsPane(QWidget* parent = nullptr);
    void setSnapshot(SnapshotP s);
    void selectEntry(int index);   // -1: none
    int currentEntry() const { return current_; }
    GraphView* graphView() const { return graph_; }
    QTreeWidget* entryTree() const { return tree_; }
    QString caption() const;       // the selected entry's line above the graph (plain text)
    // The node details panel (Netron style): op, target, shape, dtype, strides, module, source
    // line, inputs and users (links), kernel and fusion group of node `id` (-1: none).
    void showNodeDetails(int id);
    int detailsNode() const { return detailsNode_; }
    QTextBrowser* nodeDetails() const { return details_; }
    GraphLegend* legend() const { return legend_; }
    // The graph drawn for the current entry (Captured unless the entry has training graphs).
    void setGraphKind(GraphKind kind);
    GraphKind graphKind() const { return kind_; }
    QTabBar* graphTabs() const { return graphTabs_; }
    // The entry holding the drawn graph's nodes (the current entry, or one of its training graphs).
    const inspect::SnapEntry* shownGraph() const;
    // The script's text of a line, for the details' source row (the pane has no script).
    void setLineText(std::function<QString(int)> f) { lineText_ = std::move(f); }

Q_SIGNALS:
    void entrySelected(int index);
    // links in the node details
    void nodeLinkActivated(int id);
    void lineLinkActivated(int line);
    void kernelLinkActivated(int kernel);
    void graphKindChanged(GraphKind kind);
    void forwardNodeActivated(int id); // a link to the captured graph's node that a backward node comes from

private:
    void drawGraph();
    void trainingRows(const inspect::SnapEntry& captured, int id, const std::function<void(const QString&, const QString&)>& row) const;
    QString trainingCaption(const inspect::SnapEntry& e) const;
    SnapshotP snap_;
    int current_ = -1;
    int detailsNode_ = -1;
    bool refining_ = false; // the drawn graph gets the same run's later facts in place
    GraphKind kind_ = GraphKind::Captured;
    QTabBar* graphTabs_;
    QTreeWidget* tree_;
    GraphView* graph_;
    QLabel* caption_;
    QTextBrowser* details_;
    GraphLegend* legend_;
    std::function<QString(int)> lineText_;
};

class GuardsPane : public QWidget {
    Q_OBJECT
public:
    explicit GuardsPane(QWidget* parent = nullptr);
    void setSnapshot(SnapshotP s);
    void showEntry(int index);            // expands and scrolls to the entry's guards
    void showRecompileAt(int line);       // selects the recompile whose guard came from `line`
    void showRecompile(int index);        // selects the snapshot's recompile `index`
    QTreeWidget* tree() const { return tree_; }

Q_SIGNALS:
    void lineActivated(int line);

private:
    SnapshotP snap_;
    QTreeWidget* tree_;
};

class KernelsPane : public QWidget {
    Q_OBJECT
public:
    explicit KernelsPane(QWidget* parent = nullptr);
    void setSnapshot(SnapshotP s);
    void setEntry(int index);
    // Shows kernel `k` of the current entry and highlights the lines that refer to `nodes`.
    void showKernel(int k, const std::vector<int>& nodes = {});
    int currentKernel() const { return kernel_; }
    QListWidget* kernelList() const { return list_; }
    CodeView* sourceView() const { return code_; }
    QList<int> highlightedLines() const;
    // Backward kernels follow the entry's own in the list: kernel k of the backward graph is row
    // backwardRow(k) (-1: none).
    int backwardRow(int k) const;
    bool isBackwardRow(int row) const;

Q_SIGNALS:
    void nodesActivated(const std::vector<int>& nodes);
    void backwardNodesActivated(const std::vector<int>& nodes); // nodes of the backward graph

private:
    const inspect::SnapEntry* entryOfRow(int row, int& k) const; // the graph that holds row's kernel, its index there
    void showModuleText();
    void foldMathHelpers();
    SnapshotP snap_;
    int entry_ = -1, kernel_ = -1;
    bool irShown_ = false;
    QListWidget* list_;
    QTabWidget* tabs_;
    CodeView* code_;
    QPlainTextEdit* ir_;
    QPlainTextEdit* asm_;
    CodeHighlighter* irHl_ = nullptr;
    CodeHighlighter* asmHl_ = nullptr;
    QLabel* caption_;
};

class FusionPane : public QWidget {
    Q_OBJECT
public:
    explicit FusionPane(QWidget* parent = nullptr);
    void setSnapshot(SnapshotP s);
    void setEntry(int index);
    void setStep(int step);              // 0 .. decisions (clamped)
    int step() const { return step_; }
    int stepCount() const;               // decisions + 1
    void first() { setStep(0); }
    void previous() { stepTo(-1); }
    void next() { stepTo(+1); }
    void last() { setStep(stepCount() - 1); }
    GraphView* graphView() const { return graph_; }
    QString decisionText() const;
    // Filters of the decision list (and of previous / next): rejected decisions only; decisions
    // whose pair holds the selected graph node (setSelectedNode, -1: none).
    void setRejectedOnly(bool on);
    void setInvolvingSelected(bool on);
    void setSelectedNode(int id);
    QListWidget* decisionList() const { return list_; }
    QStringList shownDecisions() const;  // the list's visible rows, in order
    // "linear[mlp.2] + add": a decision's pair named as the graph names its nodes
    static QString pairName(const inspect::SnapEntry& e, const inspect::SnapDecision& d);

Q_SIGNALS:
    void stepChanged(int step);

private:
    void refresh();
    void applyFilter();
    bool passes(int decision) const;
    void stepTo(int direction); // the nearest decision the filter passes, before or after this one
    SnapshotP snap_;
    int entry_ = -1, step_ = 0;
    GraphView* graph_;
    QSlider* slider_;
    QLabel* position_;
    QTextBrowser* text_;
    QListWidget* list_;
    QPushButton *first_, *prev_, *next_, *last_;
    QCheckBox *rejectedOnly_, *involving_;
    int selectedNode_ = -1;
};

// Compiled training's partition as a stepper: the partitioner's decisions in order (each forward
// value the backward reads, saved or recomputed, its size and why), over the captured graph
// coloured by what is saved and what is recomputed after each step.
class PartitionPane : public QWidget {
    Q_OBJECT
public:
    explicit PartitionPane(QWidget* parent = nullptr);
    void setSnapshot(SnapshotP s);
    void setEntry(int index);
    void setStep(int step);              // 0 .. decisions (clamped)
    int step() const { return step_; }
    int stepCount() const;               // decisions + 1
    void first() { setStep(0); }
    void previous() { setStep(step_ - 1); }
    void next() { setStep(step_ + 1); }
    void last() { setStep(stepCount() - 1); }
    GraphView* graphView() const { return graph_; }
    QListWidget* decisionList() const { return list_; }
    QString decisionText() const;
    QString summary() const;             // the line above the stepper
    static constexpr int kSavedKey = 2, kRecomputedKey = 1; // colour keys (keyColour) of the two verdicts

Q_SIGNALS:
    void stepChanged(int step);

private:
    void refresh();
    SnapshotP snap_;
    int entry_ = -1, step_ = 0;
    GraphView* graph_;
    QSlider* slider_;
    QLabel *position_, *summary_;
    QTextBrowser* text_;
    QListWidget* list_;
    QPushButton *first_, *prev_, *next_, *last_;
};

} // namespace fl::viz
