// Graph layout with Graphviz dot, into plain structs the graph view turns into scene items.
// No Qt here: layoutGraph runs on a worker thread, and Graphviz runs under one global lock.
#pragma once

#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "viz/graph_data.h"

namespace fl::viz {

// Graphviz keeps global state and is not thread-safe: every call into it, from any thread,
// holds this lock.
std::mutex& graphvizLock();

struct LayoutPoint {
    double x = 0, y = 0;
};

struct LayoutRect {
    double x = 0, y = 0, width = 0, height = 0;  // top-left corner, y grows down
};

// One box: a graph node, or a collapsed module standing for all of its nodes.
struct LayoutBox {
    int nodeId = -1;       // GraphNodeData::id; -1 for a collapsed module
    std::string module;    // the collapsed module's path (empty for a graph node)
    int memberCount = 0;   // nodes hidden in the collapsed module
    LayoutRect rect;
};

struct LayoutEdge {
    int from = 0, to = 0;             // indices into GraphLayout::boxes
    std::vector<LayoutPoint> path;    // cubic Bezier: a start point, then (c1, c2, end) triples
    bool hasArrow = false;
    LayoutPoint arrowTip;             // the arrowhead runs from path.back() to here
};

struct LayoutCluster {
    std::string module;  // "layers.0.attn"
    int depth = 0;       // 1 for "layers", 2 for "layers.0", ...
    LayoutRect rect;
};

// A finished layout in scene units (Graphviz points), y down, origin at the top-left.
struct GraphLayout {
    std::vector<LayoutBox> boxes;
    std::vector<LayoutEdge> edges;
    std::vector<LayoutCluster> clusters;  // outer clusters before the clusters inside them
    std::vector<int> boxOfNode;           // per node id: the box that shows it
    LayoutRect bounds;
    double milliseconds = 0;              // time spent building and laying out, lock wait excluded
    std::string error;                    // empty on success
};

struct LayoutOptions {
    std::set<std::string> collapsed;  // module paths drawn as one box each
    double charWidth = 7;             // average advance of one character, in points
    double lineHeight = 15;           // height of one text line, in points
};

// Lays `graph` out top to bottom with dot, one cluster per module path. Any thread.
GraphLayout layoutGraph(const GraphData& graph, const LayoutOptions& options);

// The two text lines of a node's box: what it computes ("gelu", "mm", an input's name) and
// its shape. The layout sizes boxes from these, the view draws them.
std::string nodeTitle(const GraphNodeData& node);
std::string collapsedTitle(const std::string& module, int memberCount, int line);  // line 0 or 1

// The outermost collapsed module that contains `module` (itself included), or "" if none.
std::string collapsedOwner(const std::string& module, const std::set<std::string>& collapsed);

// The collapsed set a graph opens with: empty up to 300 nodes, else every module two levels
// deep ("layers.0" .. "layers.11"), or the top-level ones instead where there are none or where
// that still shows > 300 boxes. `force` applies the big-graph rule whatever the size ("Collapse all").
std::set<std::string> defaultCollapsedModules(const GraphData& graph, bool force = false);

} // namespace fl::viz
