#include "viz/graph_layout.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <utility>

#include <gvc.h>

namespace fl::viz {

std::mutex& graphvizLock() {
    // Never destroyed: a detached layout thread may still hold it while the process exits.
    static auto* lock = new std::mutex;
    return *lock;
}

namespace {

constexpr int kBigGraph = 300;
constexpr size_t kMaxLabelChars = 36;  // longer labels are elided when drawn
constexpr int kBroadcastFanOut = 12;  // more readers than this: straight edges, outside dot's layout

// Created once, on first use, under graphvizLock(); never freed for the same reason as the lock.
GVC_t* graphvizContext() {
    static GVC_t* gvc = gvContext();
    return gvc;
}

// Graphviz 2.42 takes char* where it means const char*.
char* cs(const char* s) { return const_cast<char*>(s); }

Agsym_t* declare(Agraph_t* g, int kind, const char* name, const char* defaultValue) {
    return agattr(g, kind, cs(name), cs(defaultValue));
}

void setAttr(void* obj, Agsym_t* sym, const std::string& value) { agxset(obj, sym, cs(value.c_str())); }

std::string inches(double points) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", points / 72.0);
    return buf;
}

// "layers.0.attn" -> {"layers", "layers.0", "layers.0.attn"}.
std::vector<std::string> prefixes(const std::string& module) {
    std::vector<std::string> out;
    if (module.empty()) return out;
    for (size_t dot = module.find('.'); dot != std::string::npos; dot = module.find('.', dot + 1))
        out.push_back(module.substr(0, dot));
    out.push_back(module);
    return out;
}

std::string parentOf(const std::string& module) {
    size_t dot = module.rfind('.');
    return dot == std::string::npos ? std::string() : module.substr(0, dot);
}

int depthOf(const std::string& module) {
    return module.empty() ? 0 : int(std::count(module.begin(), module.end(), '.')) + 1;
}

// Box size in points from its two text lines, so that the view's text fits.
std::pair<double, double> boxSize(const std::string& a, const std::string& b, const LayoutOptions& o) {
    size_t chars = std::min(kMaxLabelChars, std::max(a.size(), b.size()));
    double width = std::max(56.0, double(chars) * o.charWidth + 18);
    return {width, 2 * o.lineHeight + 10};
}

// The boxes, their modules and the deduplicated edges, before Graphviz sees them.
struct Plan {
    std::vector<LayoutBox> boxes;
    std::vector<std::string> boxCluster;  // the module whose cluster holds each box ("" = none)
    std::vector<std::pair<int, int>> edges;
    std::vector<int> boxOfNode;
    std::set<std::string> clusters;       // every module path that gets a cluster
};

Plan planBoxes(const GraphData& graph, const LayoutOptions& options) {
    Plan plan;
    const int n = int(graph.nodes.size());
    plan.boxOfNode.assign(n, -1);
    std::map<std::string, int> boxOfModule;
    for (int id = 0; id < n; ++id) {
        const GraphNodeData& node = graph.nodes[id];
        std::string owner = collapsedOwner(node.module, options.collapsed);
        if (owner.empty()) {
            plan.boxOfNode[id] = int(plan.boxes.size());
            LayoutBox box;
            box.nodeId = id;
            plan.boxes.push_back(box);
            plan.boxCluster.push_back(node.module);
            continue;
        }
        auto [it, fresh] = boxOfModule.try_emplace(owner, int(plan.boxes.size()));
        if (fresh) {
            LayoutBox box;
            box.module = owner;
            plan.boxes.push_back(box);
            plan.boxCluster.push_back(parentOf(owner));
        }
        plan.boxes[it->second].memberCount++;
        plan.boxOfNode[id] = it->second;
    }
    for (const std::string& module : plan.boxCluster)
        for (const std::string& p : prefixes(module)) plan.clusters.insert(p);

    std::set<std::pair<int, int>> seen;
    for (int id = 0; id < n; ++id) {
        for (int input : graph.nodes[id].inputs) {
            if (input < 0 || input >= n) continue;  // a malformed graph draws what it can
            int from = plan.boxOfNode[input], to = plan.boxOfNode[id];
            if (from == to || !seen.insert({from, to}).second) continue;
            plan.edges.push_back({from, to});
        }
    }
    return plan;
}

// Attributes that keep dot fast on big graphs; small graphs get dot's full effort.
// Measured on the 2,000-node transformer (tests/gui/test_graph_view.cpp): x positioning by
// network simplex dominates, and capping it at 0.5 iterations per node halves the layout time
// (~1,000 -> ~450 ms) for slightly wider drawings; the other limits trim crossing minimisation.
void tuneForSize(Agraph_t* g, int boxCount) {
    if (boxCount <= kBigGraph) return;
    declare(g, AGRAPH, "nslimit", "0.5");    // network simplex iterations (x coordinates) per node
    declare(g, AGRAPH, "nslimit1", "2");     // ... and for ranking, which is cheap
    declare(g, AGRAPH, "mclimit", "0.2");    // fewer crossing-minimisation passes
    declare(g, AGRAPH, "searchsize", "20");
    declare(g, AGRAPH, "remincross", "false");
}

} // namespace

std::string nodeTitle(const GraphNodeData& node) {
    using Kind = GraphNodeData::Kind;
    if (node.kind == Kind::Input || node.kind == Kind::Parameter || node.kind == Kind::Saved) return node.name;
    if (node.kind == Kind::Output) return "output";
    // "torch.nn.functional.gelu" -> "gelu", "aten::mm" -> "mm".
    size_t cut = node.op.find_last_of(".:");
    std::string title = cut == std::string::npos ? node.op : node.op.substr(cut + 1);
    return title.empty() ? node.name : title;
}

std::string collapsedTitle(const std::string& module, int memberCount, int line) {
    if (line == 0) return "+ " + module;
    return std::to_string(memberCount) + (memberCount == 1 ? " node" : " nodes");
}

std::string collapsedOwner(const std::string& module, const std::set<std::string>& collapsed) {
    if (collapsed.empty()) return {};
    for (const std::string& p : prefixes(module))
        if (collapsed.count(p)) return p;
    return {};
}

std::set<std::string> defaultCollapsedModules(const GraphData& graph, bool force) {
    std::set<std::string> out;
    if (!force && int(graph.nodes.size()) <= kBigGraph) return out;
    for (const GraphNodeData& node : graph.nodes) {
        std::vector<std::string> p = prefixes(node.module);
        if (p.size() >= 2) out.insert(p[1]);
    }
    if (out.empty())  // no module is two levels deep: collapse the top-level ones
        for (const GraphNodeData& node : graph.nodes)
            if (!node.module.empty()) out.insert(prefixes(node.module)[0]);
    // Count what would still be drawn; collapse the top level too if that is still a lot.
    std::set<std::string> boxes;
    int visible = 0;
    for (const GraphNodeData& node : graph.nodes) {
        std::string owner = collapsedOwner(node.module, out);
        if (owner.empty()) ++visible;
        else boxes.insert(owner);
    }
    if (visible + int(boxes.size()) > kBigGraph) {
        out.clear();
        for (const GraphNodeData& node : graph.nodes)
            if (!node.module.empty()) out.insert(prefixes(node.module)[0]);
    }
    return out;
}

GraphLayout layoutGraph(const GraphData& graph, const LayoutOptions& options) {
    GraphLayout result;
    Plan plan = planBoxes(graph, options);
    result.boxOfNode = plan.boxOfNode;
    if (plan.boxes.empty()) return result;

    // Box sizes are text arithmetic: do it before taking the lock.
    std::vector<std::pair<double, double>> sizes;
    sizes.reserve(plan.boxes.size());
    for (const LayoutBox& box : plan.boxes) {
        if (box.nodeId >= 0) {
            const GraphNodeData& node = graph.nodes[box.nodeId];
            sizes.push_back(boxSize(nodeTitle(node), node.shape, options));
        } else {
            sizes.push_back(boxSize(collapsedTitle(box.module, box.memberCount, 0),
                                    collapsedTitle(box.module, box.memberCount, 1), options));
        }
    }

    std::lock_guard<std::mutex> guard(graphvizLock());
    auto start = std::chrono::steady_clock::now();
    GVC_t* gvc = graphvizContext();
    Agraph_t* g = agopen(cs("fuselab"), Agdirected, nullptr);
    declare(g, AGRAPH, "rankdir", "TB");
    declare(g, AGRAPH, "nodesep", "0.25");
    declare(g, AGRAPH, "ranksep", "0.35");
    declare(g, AGRAPH, "labeljust", "l");
    declare(g, AGRAPH, "labelloc", "t");
    declare(g, AGRAPH, "fontsize", "11");
    Agsym_t* clusterLabel = declare(g, AGRAPH, "label", "");
    declare(g, AGNODE, "shape", "box");
    declare(g, AGNODE, "fixedsize", "true");
    declare(g, AGNODE, "label", "");  // sizes are fixed; no text for Graphviz to measure
    Agsym_t* widthSym = declare(g, AGNODE, "width", "0.75");
    Agsym_t* heightSym = declare(g, AGNODE, "height", "0.5");
    declare(g, AGEDGE, "arrowsize", "0.7");
    tuneForSize(g, int(plan.boxes.size()));

    // Clusters in sorted order, so every parent exists before its children.
    std::map<std::string, Agraph_t*> subgraphOf;
    std::vector<std::pair<std::string, Agraph_t*>> clusterOrder;
    for (const std::string& module : plan.clusters) {
        std::string parent = parentOf(module);
        Agraph_t* outer = parent.empty() ? g : subgraphOf.at(parent);
        std::string name = "cluster_" + std::to_string(clusterOrder.size());
        Agraph_t* sub = agsubg(outer, cs(name.c_str()), 1);
        agxset(sub, clusterLabel, cs(module.c_str()));
        subgraphOf[module] = sub;
        clusterOrder.push_back({module, sub});
    }

    std::vector<Agnode_t*> gvNodes(plan.boxes.size());
    for (size_t i = 0; i < plan.boxes.size(); ++i) {
        const std::string& module = plan.boxCluster[i];
        Agraph_t* home = module.empty() ? g : subgraphOf.at(module);
        std::string name = "b" + std::to_string(i);
        Agnode_t* node = agnode(home, cs(name.c_str()), 1);
        setAttr(node, widthSym, inches(sizes[i].first));
        setAttr(node, heightSym, inches(sizes[i].second));
        gvNodes[i] = node;
    }
    // A box that feeds many others (a causal mask read by every head of every layer) would pull
    // an edge across the whole drawing for each reader, and dot pays for every rank each one
    // crosses. Its edges are left out of the layout and drawn straight afterwards.
    std::vector<int> fanOut(plan.boxes.size(), 0);
    for (auto [from, to] : plan.edges) fanOut[size_t(from)]++;
    std::vector<Agedge_t*> gvEdges;
    gvEdges.reserve(plan.edges.size());
    for (auto [from, to] : plan.edges)
        gvEdges.push_back(fanOut[size_t(from)] > kBroadcastFanOut ? nullptr : agedge(g, gvNodes[from], gvNodes[to], nullptr, 1));

    if (gvLayout(gvc, g, "dot") != 0) {
        result.error = "Graphviz dot layout failed";
        agclose(g);
        return result;
    }

    // Graphviz has y up; flip against the top of the bounding box.
    boxf bb = GD_bb(g);
    const double top = bb.UR.y;
    auto flip = [&](pointf p) { return LayoutPoint{p.x - bb.LL.x, top - p.y}; };
    auto rectOf = [&](boxf b) {
        return LayoutRect{b.LL.x - bb.LL.x, top - b.UR.y, b.UR.x - b.LL.x, b.UR.y - b.LL.y};
    };
    result.bounds = rectOf(bb);

    result.boxes = std::move(plan.boxes);
    for (size_t i = 0; i < result.boxes.size(); ++i) {
        double w = ND_width(gvNodes[i]) * 72, h = ND_height(gvNodes[i]) * 72;
        LayoutPoint c = flip(ND_coord(gvNodes[i]));
        result.boxes[i].rect = {c.x - w / 2, c.y - h / 2, w, h};
    }

    result.edges.reserve(gvEdges.size());
    for (size_t i = 0; i < gvEdges.size(); ++i) {
        LayoutEdge edge;
        edge.from = plan.edges[i].first;
        edge.to = plan.edges[i].second;
        if (!gvEdges[i]) {
            // straight, from the bottom of the source to the top of the reader
            const LayoutRect& a = result.boxes[size_t(edge.from)].rect;
            const LayoutRect& b = result.boxes[size_t(edge.to)].rect;
            LayoutPoint p0{a.x + a.width / 2, a.y + a.height}, p3{b.x + b.width / 2, b.y - 6};
            auto lerp = [&](double t) { return LayoutPoint{p0.x + (p3.x - p0.x) * t, p0.y + (p3.y - p0.y) * t}; };
            edge.path = {p0, lerp(1.0 / 3), lerp(2.0 / 3), p3};
            edge.hasArrow = true;
            edge.arrowTip = {b.x + b.width / 2, b.y};
            result.edges.push_back(std::move(edge));
            continue;
        }
        const splines* spl = ED_spl(gvEdges[i]);
        if (spl && spl->size > 0 && spl->list[0].size > 0) {
            const bezier& bz = spl->list[0];
            edge.path.reserve(bz.size);
            for (int k = 0; k < bz.size; ++k) edge.path.push_back(flip(bz.list[k]));
            if (bz.eflag) {
                edge.hasArrow = true;
                edge.arrowTip = flip(bz.ep);
            }
        }
        result.edges.push_back(std::move(edge));
    }

    for (const auto& [module, sub] : clusterOrder)
        result.clusters.push_back({module, depthOf(module), rectOf(GD_bb(sub))});

    gvFreeLayout(gvc, g);
    agclose(g);
    result.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace fl::viz
