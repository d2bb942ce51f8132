// The joint graph and the partitioner alone (core/autograd): graphs built by hand, as capture
// records them with grad on, and the training graphs checked as data. Links fuselab_autograd and
// what it depends on (graph) only.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "../support/check.h"
#include "core/autograd/autograd.h"

using namespace fl;
using graph::Arg;

namespace {

graph::TensorMeta meta(std::vector<int64_t> sizes, bool grad, const std::string& dtype = "float32") {
    graph::TensorMeta m;
    for (auto s : sizes) m.shape.push_back(graph::Dim::constant(s));
    m.requiresGrad = grad;
    m.dtype = dtype;
    return m;
}

struct G {
    graph::Graph g;
    const graph::Node* in(const std::string& name, std::vector<int64_t> shape, bool grad) { return &g.addPlaceholder(name, meta(std::move(shape), grad)); }
    const graph::Node* call(const std::string& target, std::vector<Arg> args, std::vector<int64_t> shape, bool grad = true,
                            std::vector<std::pair<std::string, Arg>> kw = {}) {
        graph::Node& n = g.addCall(target, std::move(args), std::move(kw));
        n.meta.push_back(meta(std::move(shape), grad));
        return &n;
    }
};
Arg r(const graph::Node* n) { return Arg::ref(n); }
Arg num(double v) { return Arg::lit(std::to_string(v), graph::Const::real(v)); }

const autograd::Decision* decisionFor(const autograd::Training& t, const std::string& name) {
    for (auto& d : t.decisions)
        if (d.name == name) return &d;
    return nullptr;
}
size_t countTarget(const graph::Graph& g, const std::string& target) {
    return size_t(std::count_if(g.nodes().begin(), g.nodes().end(), [&](auto& n) { return n->target == target; }));
}

} // namespace

int main() {
    // an MLP: linear -> gelu -> linear, the input x without grad
    {
        G b;
        auto x = b.in("L_x_", {8, 4}, false);
        auto w1 = b.in("w1", {16, 4}, true);
        auto b1 = b.in("b1", {16}, true);
        auto w2 = b.in("w2", {1, 16}, true);
        auto lin = b.call("torch.nn.functional.linear", {r(x), r(w1), r(b1)}, {8, 16});
        auto gelu = b.call("torch.nn.functional.gelu", {r(lin)}, {8, 16}, true, {{"approximate", Arg::lit("'none'", graph::Const::str("none"))}});
        auto out = b.call("torch.nn.functional.linear", {r(gelu), r(w2)}, {8, 1});
        b.g.setOutput({r(out)});
        autograd::Training t = autograd::buildTraining(b.g);
        check(t.ok, "mlp: training graphs made (" + t.error + ")");
        check(t.gradInputs == std::vector<int>{w1->id, b1->id, w2->id}, "mlp: gradients for w1, b1, w2 and not for x");
        check(t.tangents == std::vector<int>{0}, "mlp: one tangent, for the one output");
        const graph::Node& bout = *t.backward.nodes().back();
        check(bout.args.size() == 3, "mlp: the backward returns three gradients");
        const autograd::Decision* dl = decisionFor(t, "linear");
        check(dl && dl->saved && dl->reason.find("costly") != std::string::npos, "mlp: the matmul's output is saved, too costly to recompute");
        const autograd::Decision* dg = decisionFor(t, "gelu");
        check(dg && !dg->saved && dg->reason.find("linear") != std::string::npos, "mlp: gelu is recomputed from the saved linear");
        check(t.recomputed() == 1, "mlp: one value recomputed");
        check(countTarget(t.backward, "torch.nn.functional.gelu") == 1, "mlp: the backward recomputes gelu once");
        bool savesGelu = false;
        for (auto& v : t.saved) savesGelu = savesGelu || v.node == gelu->id;
        check(!savesGelu, "mlp: gelu is not saved");
        // the training forward returns the output, then linear (x and the weights are inputs: not returned)
        const graph::Node& fout = *t.forward.nodes().back();
        check(fout.args.size() == 2 && fout.args[1].node && fout.args[1].node->name == "linear", "mlp: the forward returns (out, linear)");
        check(autograd::printJoint(t).find("tangents_1") != std::string::npos, "mlp: the joint graph prints its tangent");
        check(countTarget(t.backward, "torch.erf") == 1 && countTarget(t.backward, "torch.matmul") >= 3, "mlp: gelu's derivative and the matmuls are in the backward");
    }
    // broadcasting: x [4, 1] + y [4, 3]; x's gradient sums the broadcast dim back (keepdim)
    {
        G b;
        auto x = b.in("x", {4, 1}, true);
        auto y = b.in("y", {4, 3}, true);
        auto add = b.call("operator.add", {r(x), r(y)}, {4, 3});
        auto s = b.call("torch.Tensor.sum", {r(add)}, {});
        b.g.setOutput({r(s)});
        autograd::Training t = autograd::buildTraining(b.g);
        check(t.ok, "broadcast: made (" + t.error + ")");
        const graph::Node& out = *t.backward.nodes().back();
        bool xShape = out.args.size() == 2 && out.args[0].node && out.args[0].node->meta.size() == 1 &&
                      graph::formatMeta(out.args[0].node->meta[0]) == "f32[4, 1]";
        check(xShape, "broadcast: x's gradient has x's shape [4, 1]");
        check(out.args.size() == 2 && out.args[1].node && graph::formatMeta(out.args[1].node->meta[0]) == "f32[4, 3]", "broadcast: y's gradient is [4, 3]");
    }
    // save or recompute: tanh(a + b) of two matmul outputs; recomputing the sum would keep both
    // (twice the bytes of the tanh), so tanh's output is saved
    {
        G b;
        auto x = b.in("x", {64, 64}, false);
        auto w = b.in("w", {64, 64}, true);
        auto w2 = b.in("w2", {64, 64}, true);
        auto m1 = b.call("torch.matmul", {r(x), r(w)}, {64, 64});
        auto m2 = b.call("torch.matmul", {r(x), r(w2)}, {64, 64});
        auto sum = b.call("operator.add", {r(m1), r(m2)}, {64, 64});
        auto th = b.call("torch.tanh", {r(sum)}, {64, 64});
        b.g.setOutput({r(th)});
        autograd::Training t = autograd::buildTraining(b.g);
        check(t.ok, "save: made (" + t.error + ")");
        const autograd::Decision* d = decisionFor(t, "tanh");
        check(d && d->saved && d->bytes == 64 * 64 * 4 && d->reason.find("would keep") != std::string::npos, "save: tanh's output is saved, with why");
        check(t.recomputed() == 0, "save: nothing recomputed");
    }
    // what has no compiled backward, and says why
    {
        G b;
        auto x = b.in("x", {4, 5}, true);
        auto c = b.call("torch.cumsum", {r(x), Arg::integer(1)}, {4, 5});
        b.g.setOutput({r(c)});
        autograd::Training t = autograd::buildTraining(b.g);
        check(!t.ok && t.error.find("no derivative rule for torch.cumsum") != std::string::npos && t.error.find("cumsum = ") == 0,
              "no rule: cumsum is named with its node (" + t.error + ")");
    }
    {
        G b;
        graph::TensorMeta m = meta({2, 3}, true);
        m.shape[0] = graph::Dim::sym("s0");
        auto x = &b.g.addPlaceholder("x", m);
        graph::Node& e = b.g.addCall("torch.exp", {r(x)});
        e.meta.push_back(m);
        b.g.setOutput({r(&e)});
        autograd::Training t = autograd::buildTraining(b.g);
        check(!t.ok && t.error.find("dynamic shape (s0") != std::string::npos, "dynamic: no compiled backward, the symbol named (" + t.error + ")");
    }
    {
        G b;
        auto x = b.in("x", {3}, false);
        auto e = b.call("torch.exp", {r(x)}, {3}, false);
        b.g.setOutput({r(e)});
        autograd::Training t = autograd::buildTraining(b.g);
        check(!t.ok, "no grad: nothing to differentiate");
    }
    // a node traced under no_grad (meta: no requires_grad) passes no gradient on
    {
        G b;
        auto x = b.in("x", {3}, true);
        auto stopped = b.call("torch.exp", {r(x)}, {3}, false);
        auto y = b.call("operator.mul", {r(x), r(stopped)}, {3});
        b.g.setOutput({r(y)});
        autograd::Training t = autograd::buildTraining(b.g);
        // x's gradient is g * exp(x) alone: differentiating exp too would add g * x * exp(x)
        check(t.ok && t.jointBackwardNodes == 1 && countTarget(t.backward, "operator.mul") == 1 && countTarget(t.backward, "operator.add") == 0,
              "no_grad: exp(x) under no_grad is read as a constant, not differentiated");
    }
    // a CNN block: batch_norm (training) -> relu -> max_pool2d -> flatten -> linear. The forward's
    // batch_norm becomes native_batch_norm and its max_pool2d max_pool2d_with_indices, so the
    // backward reads the batch's statistics and the maxima's indices instead of recomputing them;
    // relu's output is saved (recomputing it would keep batch_norm's, as many bytes, and redo the
    // work), flatten recomputed (a view: no work)
    {
        G b;
        auto x = b.in("x", {4, 3, 8, 8}, true);
        auto rm = b.in("running_mean", {3}, false);
        auto rv = b.in("running_var", {3}, false);
        auto w = b.in("w", {3}, true);
        auto bias = b.in("b", {3}, true);
        auto bn = b.call("torch.nn.functional.batch_norm",
                         {r(x), r(rm), r(rv), r(w), r(bias), Arg::boolean(true), Arg::lit("0.1", graph::Const::real(0.1)),
                          Arg::lit("1e-05", graph::Const::real(1e-5))},
                         {4, 3, 8, 8});
        auto relu = b.call("torch.nn.functional.relu", {r(bn)}, {4, 3, 8, 8});
        auto mp = b.call("torch.nn.functional.max_pool2d", {r(relu), Arg::integer(2)}, {4, 3, 4, 4});
        auto fl = b.call("torch.Tensor.flatten", {r(mp), Arg::integer(1)}, {4, 48});
        auto head = b.in("head", {2, 48}, true);
        auto lin = b.call("torch.nn.functional.linear", {r(fl), r(head)}, {4, 2});
        b.g.setOutput({r(lin)});
        autograd::Training t = autograd::buildTraining(b.g);
        check(t.ok, "cnn: made (" + t.error + ")");
        check(t.rewritten == std::vector<int>{bn->id, mp->id}, "cnn: batch_norm and max_pool2d rewritten in place");
        const graph::Node& fbn = *t.forward.nodes()[size_t(bn->id)];
        const graph::Node& fmp = *t.forward.nodes()[size_t(mp->id)];
        check(fbn.target == "torch.native_batch_norm" && fbn.meta.size() == 3 && graph::formatMeta(fbn.meta[1]) == "f32[3]",
              "cnn: the forward computes native_batch_norm with its mean and 1/std");
        check(fmp.target == "torch._C._nn.max_pool2d_with_indices" && fmp.meta.size() == 2 && fmp.meta[1].dtype == "int64",
              "cnn: the forward computes max_pool2d_with_indices");
        const graph::Node& frelu = *t.forward.nodes()[size_t(relu->id)];
        check(frelu.args.size() == 1 && frelu.args[0].node == &fbn && frelu.args[0].index == 0, "cnn: relu reads item 0 of native_batch_norm");
        auto savedHas = [&](int node, int index) {
            return std::find(t.saved.begin(), t.saved.end(), autograd::ValueRef{node, index}) != t.saved.end();
        };
        check(savedHas(bn->id, 1) && savedHas(bn->id, 2) && savedHas(mp->id, 1), "cnn: the statistics and the indices are saved");
        check(countTarget(t.backward, "torch._C._nn.max_pool2d_with_indices") == 0 && countTarget(t.backward, "torch.rsqrt") == 0,
              "cnn: the backward recomputes neither the indices nor the statistics");
        const autograd::Decision* dr = decisionFor(t, "relu");
        check(dr && dr->saved && dr->reason.find("batch_norm[0]") != std::string::npos, "cnn: relu saved, with why (" + (dr ? dr->reason : "") + ")");
        const autograd::Decision* dfl = decisionFor(t, "flatten");
        check(dfl && !dfl->saved && dfl->reason.find("a view of max_pool2d[0]") == 0, "cnn: flatten recomputed from max_pool2d[0] (" + (dfl ? dfl->reason : "") + ")");
        const autograd::Decision* dmp = decisionFor(t, "max_pool2d[0]");
        check(dmp && dmp->saved && dmp->bytes == 4 * 3 * 4 * 4 * 4, "cnn: max_pool2d[0] saved with its bytes");
        check(countTarget(t.backward, "torch._C._nn.native_batch_norm_backward") == 1, "cnn: one native_batch_norm_backward");
    }
    // eval mode: batch_norm is left as captured (the running statistics are what the backward reads)
    {
        G b;
        auto x = b.in("x", {4, 3, 8, 8}, true);
        auto rm = b.in("running_mean", {3}, false);
        auto rv = b.in("running_var", {3}, false);
        auto bn = b.call("torch.nn.functional.batch_norm", {r(x), r(rm), r(rv), Arg::none(), Arg::none(), Arg::boolean(false)}, {4, 3, 8, 8});
        b.g.setOutput({r(bn)});
        autograd::Training t = autograd::buildTraining(b.g);
        check(t.ok && t.rewritten.empty() && t.forward.nodes()[size_t(bn->id)]->target == "torch.nn.functional.batch_norm",
              "eval batch_norm: not rewritten (" + t.error + ")");
    }
    // dropout in training mode: the forward draws the noise (dropout_with_noise's item 1) and
    // returns it; the backward multiplies by it; eval mode passes the gradient through
    {
        G b;
        auto x = b.in("x", {4, 8}, false);
        auto w = b.in("w", {8, 8}, true);
        auto lin = b.call("torch.nn.functional.linear", {r(x), r(w)}, {4, 8});
        auto drop = b.call("torch.nn.functional.dropout", {r(lin), num(0.1), Arg::boolean(true), Arg::boolean(false)}, {4, 8});
        auto ev = b.call("torch.nn.functional.dropout", {r(drop), num(0.1), Arg::boolean(false), Arg::boolean(false)}, {4, 8});
        auto s = b.call("torch.Tensor.sum", {r(ev)}, {});
        b.g.setOutput({r(s), r(drop)});
        autograd::Training t = autograd::buildTraining(b.g);
        check(t.ok, "dropout: training graphs made (" + t.error + ")");
        check(t.rewritten == std::vector<int>{drop->id}, "dropout: the training-mode dropout draws a mask, the eval-mode one does not");
        const graph::Node& fd = *t.forward.nodes()[size_t(drop->id)];
        check(fd.target == "torch.ops.fuselab.dropout_with_noise" && fd.meta.size() == 2 && !fd.meta[1].requiresGrad,
              "dropout: the forward holds dropout_with_noise -> (output, noise)");
        bool savesNoise = false;
        for (auto& v : t.saved) savesNoise = savesNoise || (v.node == drop->id && v.index == 1);
        check(savesNoise, "dropout: the noise is saved for the backward");
        const graph::Node& fout = *t.forward.nodes().back();
        check(fout.args.size() >= 2 && fout.args[1].node == &fd && fout.args[1].index == 0, "dropout: the returned dropout is the call's item 0");
        check(countTarget(t.backward, "torch.ops.fuselab.dropout_with_noise") == 0, "dropout: the backward never draws again");
        std::string bwd = graph::printGraph(t.backward);
        check(bwd.find("operator.mul(add, dropout_1)") != std::string::npos, "dropout: the backward multiplies by the saved noise:\n" + bwd);
        check(countTarget(t.forward, "torch.nn.functional.dropout") == 1, "dropout: the eval-mode dropout stays as it was");
    }
    {
        G b;
        auto x = b.in("x", {4, 8}, true);
        auto d0 = b.call("torch.nn.functional.dropout", {r(x), num(0.0), Arg::boolean(true)}, {4, 8});
        b.g.setOutput({r(d0)});
        autograd::Training t = autograd::buildTraining(b.g);
        check(t.ok && t.rewritten.empty(), "dropout: p = 0 draws nothing and passes the gradient through (" + t.error + ")");
    }
    // an output the caller hands out as a view of an input gets no tangent; the gradient through
    // the other use of the same view still reaches the input
    {
        G b;
        auto w = b.in("w", {4, 3}, true);
        auto t = b.call("torch.Tensor.t", {r(w)}, {3, 4});
        auto e = b.call("torch.exp", {r(t)}, {3, 4});
        b.g.setOutput({r(e), r(t)});
        autograd::Training tr = autograd::buildTraining(b.g, {1});
        check(tr.ok && tr.tangents == std::vector<int>{0}, "aliased output: one tangent, for exp's output (" + tr.error + ")");
        check(tr.gradInputs == std::vector<int>{w->id} && countTarget(tr.backward, "torch.Tensor.t") + countTarget(tr.backward, "torch.Tensor.transpose") >= 1,
              "aliased output: w's gradient comes back through the transpose");
    }
    // the rule list names the ops the issue lists
    std::vector<std::string> ops = autograd::differentiableOps();
    for (const char* op : {"linear", "matmul", "gelu", "silu", "softmax", "log_softmax", "layer_norm", "mean", "sum", "embedding", "cross_entropy", "mse_loss", "view", "conv2d", "max_pool2d", "batch_norm", "dropout", "dropout_with_noise"})
        check(std::find(ops.begin(), ops.end(), op) != ops.end(), std::string("a rule for ") + op);
    std::printf("autograd: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
