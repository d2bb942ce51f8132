// The graph the graph view draws: plain C++ (no Qt), filled by the main window from a captured
// graph. Nodes are indexed by id; edges are implied by each node's inputs.
#pragma once

#include <string>
#include <vector>

namespace fl::viz {

struct GraphNodeData {
    int id = 0;                    // == index in GraphData::nodes
    std::string name;              // "linear_1"
    std::string op;                // "torch.nn.functional.gelu", "placeholder", "output", "aten::mm"
    std::string shape;             // "f32[32, 256]"
    // Saved: a backward graph's input that holds a value the forward saved for it; Recomputed: a
    // forward node the backward computes again (compiled training).
    enum class Kind { Input, Parameter, Op, Extern, Fallback, Output, Saved, Recomputed } kind = Kind::Op;
    std::string module;            // nn.Module path, "layers.0.attn" ("" = top level)
    int line = 0;                  // script line (0: none)
    std::vector<int> inputs;       // ids of the nodes it reads (edges input -> this)
};

struct GraphData {
    std::string title;
    std::vector<GraphNodeData> nodes;
};

} // namespace fl::viz
