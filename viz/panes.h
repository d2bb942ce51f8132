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
// Colour keys of each graph node after `step` fusion decisions: a group that is (or contains the
// first node of) a final kernel takes that kernel's index, so the colours settle on the kernels'
// as the steps go; other partial groups get keys of their own; -1 for nodes outside every group.
std::vector<int> colourKeysAt(const inspect::SnapEntry& e, int step);
// A frame as the entry list names it: "Block.forward:38", "resume in Block.forward at 41".
QString frameName(const inspect::SnapEntry& e);
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
    // The script's text of a line, for the details' source row (the pane has no script).
    void setLineText(std::function<QString(int)> f) { lineText_ = std::move(f); }

Q_SIGNALS:
    void entrySelected(int index);
    // links in the node details
    void nodeLinkActivated(int id);
    void lineLinkActivated(int line);
    void kernelLinkActivated(int kernel);

private:
    SnapshotP snap_;
    int current_ = -1;
    int detailsNode_ = -1;
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

Q_SIGNALS:
    void nodesActivated(const std::vector<int>& nodes);

private:
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

} // namespace fl::viz
