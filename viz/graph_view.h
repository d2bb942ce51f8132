// The graph view: a captured graph drawn as boxes and arrows, one translucent box per module,
// laid out by Graphviz on a worker thread. Modules collapse to one box; setGroups() recolours
// nodes by fusion group without a relayout; search, selection, zoom and pan.
#pragma once

#include <QColor>
#include <QRectF>
#include <QString>
#include <QWidget>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "viz/graph_data.h"
#include "viz/graph_layout.h"

class QGraphicsScene;
class QGraphicsView;
class QLabel;
class QLineEdit;

namespace fl::viz {

class GraphCanvas;

class GraphView : public QWidget {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    // Lays the graph out on a worker thread (the newest call wins) and draws it; emits
    // layoutFinished() once the scene is complete. Graphs over 300 nodes open with their
    // second-level modules collapsed (see defaultCollapsedModules).
    void setGraph(const GraphData& graph);
    const GraphData& graph() const { return *graph_; }
    // The same graph with facts added (its nodes' kinds once it is compiled): the boxes are
    // redrawn in place, keeping the layout and what is collapsed, selected and in view. False,
    // and nothing done, for another graph (nodes, names, edges or modules differ).
    bool updateGraph(const GraphData& graph);
    bool isLayingOut() const { return layingOut_; }

    // Collapsing or expanding a module lays the graph out again, asynchronously.
    void setCollapsed(const std::string& module, bool collapsed);
    bool isCollapsed(const std::string& module) const { return collapsed_.count(module) > 0; }
    const std::set<std::string>& collapsedModules() const { return collapsed_; }
    void expandAll();
    void collapseAll();

    // Per node id a group number (-1: none). Recolours the drawn nodes; no relayout.
    void setGroups(const std::vector<int>& groupOfNode);
    static QColor groupColor(int group, bool darkPalette);

    // Highlights the nodes and brings `focus` (default: the first of them) into view, expanding
    // the modules that hide them: centred on those boxes, zoomed out when they do not fit.
    void selectNodes(const std::vector<int>& ids, const std::vector<int>& focus = {});
    std::vector<int> selectedNodes() const { return selected_; }

    // The search box: matching nodes (name or op contains the text) are highlighted;
    // findNext() selects and centres on the next match, as Enter does.
    void setSearchText(const QString& text);
    void findNext();
    std::vector<int> searchMatches() const { return matches_; }

    void fit();
    void zoomIn();
    void zoomOut();

    QString nodeTooltip(int id) const;  // name, op, shape, module, line, group

    // For the main window and tests.
    QGraphicsView* view() const;
    QLineEdit* searchBox() const { return search_; }
    const GraphLayout& currentLayout() const { return *layout_; }
    int nodeItemCount() const;     // drawn boxes: graph nodes plus collapsed modules
    int edgeItemCount() const;
    int clusterItemCount() const;
    bool isNodeShown(int id) const;  // false while it is hidden inside a collapsed module
    QRectF nodeRect(int id) const;   // scene rect of the box that shows the node
    QColor nodeFill(int id) const;   // fill of that box
    bool isNodeHighlighted(int id) const;  // selected or a search match
    QRectF collapsedRect(const std::string& module) const;  // empty if not drawn collapsed

    struct Style;  // internal: palette colours and fonts the scene items paint with

Q_SIGNALS:
    void layoutFinished();
    void nodeClicked(int id); // a click on a node, or Enter in the search going to a match

protected:
    void changeEvent(QEvent* event) override;

private:
    friend class GraphCanvas;
    struct LayoutJob;   // state shared with the worker thread
    struct Items;       // the scene items of the current layout

    void requestLayout();
    void onLayoutReady(int generation, std::shared_ptr<GraphLayout> layout);
    void buildBatch(int generation);
    void finishBuild();
    void refreshStyle();
    void recolour();
    void applyHighlights();
    void bringIntoView(const std::vector<int>& ids);
    bool expandToShow(int id);  // true if that needed a relayout
    void handleClick(const QPointF& scenePos);
    void handleDoubleClick(const QPointF& scenePos);
    QString boxTooltip(int box) const;

    std::shared_ptr<const GraphData> graph_;
    std::set<std::string> collapsed_;
    std::vector<int> groups_;
    std::vector<int> selected_;
    std::vector<int> matches_;
    std::vector<QString> searchKeys_;  // per node: "name\nop", for case-insensitive search
    QString searchText_;
    int matchCursor_ = -1;

    std::shared_ptr<LayoutJob> job_;
    int generation_ = 0;
    bool layingOut_ = false;
    bool fitWhenDrawn_ = false;
    std::string focusModule_;   // after a collapse/expand, centre on this module
    std::vector<int> pendingFocus_;  // bring these nodes into view once the scene is built

    std::shared_ptr<GraphLayout> layout_;
    std::unique_ptr<Items> items_;     // shown in the view
    std::unique_ptr<Items> building_;  // filled in batches, swapped in when complete

    std::unique_ptr<Style> style_;
    GraphCanvas* canvas_ = nullptr;
    QLineEdit* search_ = nullptr;
    QLabel* status_ = nullptr;
};

// The key to the graph's drawing: what each outline means (dashed: runs eagerly, double border:
// library call, dotted: parameter, ...), the fill (the node's kernel) and the selection and
// search outlines. Drawn with the graph's own painting code, so the two cannot disagree.
class GraphLegend : public QWidget {
    Q_OBJECT
public:
    explicit GraphLegend(QWidget* parent = nullptr);
    ~GraphLegend() override;
    QStringList entries() const; // the labels, in order
    // Adds the training graphs' styles: saved by the forward, recomputed in the backward.
    void setTraining(bool on);
    bool hasHeightForWidth() const override;
    int heightForWidth(int w) const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    std::unique_ptr<GraphView::Style> style_;
    bool training_ = false;
};

} // namespace fl::viz
