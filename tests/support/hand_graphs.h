// Small graphs built by hand (what capture records for a few lines of a script) and taken through
// lowering and fusion, for the unit tests of the later passes (fuse, codegen's plan and emit). No
// capture, interpreter or LibTorch: the tests that use it link the layers they test and what
// those depend on, and nothing else.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/fuse/fuse.h"
#include "core/graph/graph.h"
#include "core/lower/lower.h"

namespace hand {

using fl::graph::Arg;
using fl::graph::Const;

inline fl::graph::TensorMeta f32(std::vector<int64_t> sizes) {
    fl::graph::TensorMeta m;
    for (auto s : sizes) m.shape.push_back(fl::graph::Dim::constant(s));
    return m;
}

// A graph under construction: inputs and calls, each call with the shape of its result.
struct Builder {
    fl::graph::Graph g;
    const fl::graph::Node* input(const std::string& name, std::vector<int64_t> shape) { return &g.addPlaceholder(name, f32(std::move(shape))); }
    const fl::graph::Node* call(const std::string& target, std::vector<Arg> args, std::vector<int64_t> shape,
                                std::vector<std::pair<std::string, Arg>> kwargs = {}) {
        fl::graph::Node& n = g.addCall(target, std::move(args), std::move(kwargs));
        n.meta.push_back(f32(std::move(shape)));
        n.span = {"hand.py", int(g.nodes().size()), 4, 20};
        return &n;
    }
};
inline Arg ref(const fl::graph::Node* n) { return Arg::ref(n); }
inline Arg real(double v, const std::string& text) { return Arg::lit(text, Const::real(v)); }

// A graph lowered and scheduled as the pipeline does it (compile::dependencyPass, fusePass),
// for graphs of kernel ops only (no library calls, eager ops or views read whole).
struct Scheduled {
    fl::lower::Lowered lowered;
    fl::fuse::Schedule schedule;
    std::vector<int> order; // execution units
    const fl::lower::Program& program() const { return lowered.program; }
};

inline void loadsOf(const fl::lower::SE& e, std::set<int>& out) {
    if (e->kind == fl::lower::SExpr::Load || e->kind == fl::lower::SExpr::Scalar) out.insert(e->buffer);
    for (auto& a : e->args) loadsOf(a, out);
}

inline Scheduled schedule(const fl::graph::Graph& g, const fl::fuse::Options& options = {}) {
    Scheduled s;
    s.lowered = fl::lower::lowerGraph(g);
    const fl::lower::Program& p = s.lowered.program;
    std::vector<std::vector<int>> deps(p.nodes.size());
    std::vector<bool> needsValue(p.nodes.size(), false);
    for (auto& n : p.nodes) {
        std::set<int> d;
        if (n.body) loadsOf(n.body, d);
        d.erase(n.id);
        deps[n.id].assign(d.begin(), d.end());
    }
    for (auto& gi : s.lowered.info)
        if (gi.needsValue && !gi.viewOp && gi.value.kind == fl::lower::LoweredValue::Buffer && gi.value.buffer >= 0) needsValue[gi.value.buffer] = true;
    s.schedule = fl::fuse::schedule(p, deps, needsValue, options);
    s.order = fl::fuse::executionOrder(p, s.schedule, deps);
    return s;
}

// ---- the graphs: what a line or two of a model script records

// torch.softmax(x, dim=-1)
inline Scheduled softmax(int64_t rows, int64_t cols) {
    Builder b;
    auto x = b.input("L_x_", {rows, cols});
    auto sm = b.call("torch.softmax", {ref(x)}, {rows, cols}, {{"dim", Arg::integer(-1)}});
    b.g.setOutput({ref(sm)});
    return schedule(b.g);
}

// F.layer_norm(x, (cols,), w, b)
inline Scheduled layerNorm(int64_t rows, int64_t cols) {
    Builder b;
    auto x = b.input("L_x_", {rows, cols});
    auto w = b.input("L_w_", {cols});
    auto bias = b.input("L_b_", {cols});
    Arg shape = Arg::lit("(" + std::to_string(cols) + ",)", Const::tuple({Const::integer(cols)}));
    auto ln = b.call("torch.nn.functional.layer_norm", {ref(x), shape, ref(w), ref(bias)}, {rows, cols});
    b.g.setOutput({ref(ln)});
    return schedule(b.g);
}

// torch.tanh(x * torch.sigmoid(x)) + x: chained costly math
inline Scheduled chain(int64_t rows, int64_t cols) {
    Builder b;
    auto x = b.input("L_x_", {rows, cols});
    auto sg = b.call("torch.sigmoid", {ref(x)}, {rows, cols});
    auto mul = b.call("operator.mul", {ref(x), ref(sg)}, {rows, cols});
    auto th = b.call("torch.tanh", {ref(mul)}, {rows, cols});
    auto add = b.call("operator.add", {ref(th), ref(x)}, {rows, cols});
    b.g.setOutput({ref(add)});
    return schedule(b.g);
}

// x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
inline Scheduled rmsNorm(int64_t rows, int64_t cols) {
    Builder b;
    auto x = b.input("L_x_", {rows, cols});
    auto w = b.input("L_w_", {cols});
    auto pw = b.call("torch.Tensor.pow", {ref(x), Arg::integer(2)}, {rows, cols});
    auto mean = b.call("torch.Tensor.mean", {ref(pw), Arg::integer(-1)}, {rows, 1}, {{"keepdim", Arg::boolean(true)}});
    auto add = b.call("operator.add", {ref(mean), real(1e-6, "1e-06")}, {rows, 1});
    auto rs = b.call("torch.rsqrt", {ref(add)}, {rows, 1});
    auto mul = b.call("operator.mul", {ref(x), ref(rs)}, {rows, cols});
    auto out = b.call("operator.mul", {ref(mul), ref(w)}, {rows, cols});
    b.g.setOutput({ref(out)});
    return schedule(b.g);
}

// e = x * torch.exp(x.amax(-1, keepdim=True) * 0.01); e / e.sum(-1, keepdim=True): a costly value
// fixed for the row (exp of the row's max), read by two loops
inline Scheduled expOfMax(int64_t rows, int64_t cols) {
    Builder b;
    auto x = b.input("L_x_", {rows, cols});
    auto mx = b.call("torch.Tensor.amax", {ref(x), Arg::integer(-1)}, {rows, 1}, {{"keepdim", Arg::boolean(true)}});
    auto sc = b.call("operator.mul", {ref(mx), real(0.01, "0.01")}, {rows, 1});
    auto ex = b.call("torch.exp", {ref(sc)}, {rows, 1});
    auto e = b.call("operator.mul", {ref(x), ref(ex)}, {rows, cols});
    auto sum = b.call("torch.Tensor.sum", {ref(e), Arg::integer(-1)}, {rows, 1}, {{"keepdim", Arg::boolean(true)}});
    auto out = b.call("operator.truediv", {ref(e), ref(sum)}, {rows, cols});
    b.g.setOutput({ref(out)});
    return schedule(b.g);
}

// A one-op kernel: torch.TARGET(x) (op "torch.relu": then + 1), or x + 1 for "".
inline Scheduled pointwise(const std::string& target, int64_t rows, int64_t cols) {
    Builder b;
    auto x = b.input("L_x_", {rows, cols});
    auto v = target.empty() ? x : b.call(target, {ref(x)}, {rows, cols});
    auto out = b.call("operator.add", {ref(v), Arg::integer(1)}, {rows, cols});
    b.g.setOutput({ref(out)});
    return schedule(b.g);
}

} // namespace hand
