// Lowering: a graph (core/graph: the one capture builds and the window draws) becomes a loop-IR
// Program (see ir.h). Pointwise ops and their decompositions (gelu, silu, layer_norm, softmax,
// log_softmax, mean/var, rsqrt, masked_fill, where, dropout in eval) become Pointwise and
// Reduction nodes; generated tensors (int arange, zeros/ones/full, tril/triu) are Pointwise nodes
// over their own index; embedding, cross_entropy and F.pad read through clamped or data-read
// indices (gathers, with Program::indexChecks); views become index expressions; mm/bmm/matmul/linear become Extern nodes
// (linear: the matmul, then a pointwise bias add); any other op is a Fallback node that runs
// eagerly as recorded, with the reason kept.
#pragma once

#include <string>
#include <vector>

#include "core/graph/graph.h"
#include "core/lower/ir.h"

namespace fl::lower {

// A graph node's value, as the compiled code sees it.
struct LoweredValue {
    enum Kind : uint8_t { None, Buffer, View, Other } kind = None;
    int buffer = -1;            // Buffer / View: the buffer read
    Shape shape;
    DType dtype = DType::F32;
    std::vector<IE> coords;     // View: buffer coordinates in terms of v0..v{k-1} (the view's)
};

struct GraphNodeInfo {
    LoweredValue value;               // the result (tensor results only)
    std::vector<LoweredValue> items;  // tuple results (split, chunk)
    bool needsValue = false;          // read as a script value: a graph output, or an input of an extern/fallback
    bool viewOp = false;              // computed from its inputs by a view (evaluated eagerly when a value is needed)
};

struct Lowered {
    Program program;
    std::vector<GraphNodeInfo> info; // per graph node before the output, by node id
    bool ok = false;                 // false: nothing compilable (error says why)
    std::string error;
};

// Reads the graph alone: its nodes' targets, constant arguments (Arg::value), tensor meta (shapes,
// dtypes, eager's strides; a placeholder without meta is a symbolic scalar) and source spans.
Lowered lowerGraph(const graph::Graph& g);

// Whether an op the compiler does not lower is a library call by design (an Extern that runs the
// op as recorded: convolutions and their gradients, index_add, baddbmm) rather than an eager op.
bool isLibraryCall(const std::string& target);

// Loads `v` at the given coordinates of its own shape (broadcasting is the caller's business).
SE loadValue(const LoweredValue& v, const std::vector<IE>& at);

} // namespace fl::lower
