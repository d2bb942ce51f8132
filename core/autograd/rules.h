// The derivative rules (derivatives.cpp) and the graph builder they write backward nodes with.
// Internal to core/autograd.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/graph/graph.h"

namespace fl::autograd::detail {

using graph::Arg;
using Shape = std::vector<int64_t>;

// The tensor meta of a value (a node reference, or an item of a tuple result); null for a
// constant or a value without one.
const graph::TensorMeta* metaOf(const Arg& a);
Shape shapeOf(const graph::TensorMeta& m);
inline bool isTensor(const Arg& a) { return metaOf(a) != nullptr; }

// Writes backward nodes into a graph: each call gets the meta (static shape, dtype) of its result,
// so lowering can check what it made, as it checks captured nodes.
class Builder {
public:
    explicit Builder(graph::Graph& g) : g_(g) {}
    Arg call(const std::string& target, std::vector<Arg> args, graph::TensorMeta meta, std::vector<std::pair<std::string, Arg>> kw = {});
    // A call with a tuple result, one meta per item: its items are Arg::item(node, i).
    const graph::Node* callTuple(const std::string& target, std::vector<Arg> args, std::vector<graph::TensorMeta> metas);
    size_t calls() const { return calls_; }

    // constants as the graph prints them
    static Arg num(double v);
    static Arg ints(const Shape& v); // a tuple of ints: (2, 3)

    // pointwise (broadcasting, float results)
    Arg add(const Arg& a, const Arg& b);
    Arg sub(const Arg& a, const Arg& b);
    Arg mul(const Arg& a, const Arg& b);
    Arg div(const Arg& a, const Arg& b);
    Arg neg(const Arg& a);
    Arg unary(const char* op, const Arg& a); // torch.<op>(a): exp, tanh, erf, ...
    Arg pow(const Arg& a, double exponent);
    Arg compare(const char* op, const Arg& a, const Arg& b); // torch.<op>: gt, le, ... (bool)
    Arg logical(const char* op, const Arg& a, const Arg& b); // logical_and / logical_or (bool)
    Arg logicalNot(const Arg& a);
    Arg where(const Arg& cond, const Arg& a, const Arg& b);
    Arg zeroWhere(const Arg& x, const Arg& mask); // masked_fill(x, mask, 0.0)
    Arg toFloat(const Arg& a, const std::string& dtype);

    // reductions and views (static shapes)
    Arg sum(const Arg& a, std::vector<int64_t> dims, bool keepdim);
    Arg mean(const Arg& a, std::vector<int64_t> dims, bool keepdim);
    Arg sumTo(const Arg& a, const Shape& shape); // the sum of a broadcast value back to `shape`
    Arg reshape(const Arg& a, const Shape& shape);
    Arg expand(const Arg& a, const Shape& shape);
    Arg transpose(const Arg& a, int64_t d0, int64_t d1);
    Arg permute(const Arg& a, const Shape& dims);
    Arg matmul(const Arg& a, const Arg& b);
    Arg pad(const Arg& a, const Shape& widths, const Shape& shape); // F.pad with zeros: (last lo, last hi, ...)
    Arg zeros(const Shape& shape, const std::string& dtype);

private:
    graph::TensorMeta broadcast(const Arg& a, const Arg& b, const std::string& dtype);
    Arg reduce(const char* target, const Arg& a, std::vector<int64_t> dims, bool keepdim);
    graph::Graph& g_;
    size_t calls_ = 0;
};

// The gradient of one input: the forward node's argument (a node reference) and its gradient.
struct InputGrad {
    Arg input;
    Arg grad;
};

// Differentiates one forward node: `gradOut` holds the gradient of each of its tensor results
// (a None constant where none flows). Returns false, with `why`, when no rule covers the call.
// `needsGrad` says which values get a gradient (inputs that require grad and what is computed from them).
using NeedsGrad = std::function<bool(const Arg&)>;
bool differentiate(Builder& b, const graph::Node& fwd, const std::vector<Arg>& gradOut, const NeedsGrad& needsGrad,
                   std::vector<InputGrad>& out, std::string& why);

// Rewrites a forward node (already in the joint graph) into the library call that also returns
// what its backward reads, as AOTAutograd's decompositions do: max_pool2d into
// max_pool2d_with_indices (the indices), batch_norm in training mode into native_batch_norm (the
// batch's mean and 1/std). The node keeps its id; its value becomes item 0 of the tuple. False,
// the node unchanged, where there is nothing to gain (no gradient flows in, eval mode).
bool rewriteForward(graph::Node& fwd, const NeedsGrad& needsGrad);

// Ops with a rule (base names).
std::vector<std::string> ruleNames();

// rewriteForward's dropout (dropout.cpp): a dropout in training mode (0 < p < 1) becomes
// autograd::kDropoutWithNoise(x, p), eager's dropout returning the noise it multiplied by.
bool rewriteDropout(graph::Node& fwd, const NeedsGrad& needsGrad);

// A static shape's element count.
int64_t numel(const Shape& s);

} // namespace fl::autograd::detail
