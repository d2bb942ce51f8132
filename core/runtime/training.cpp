// Compiled training (see training.h and runtime.h's TrainingCode). One of the few files with
// LibTorch headers: the backward is a LibTorch autograd node, so .grad accumulation, retain_graph,
// torch.autograd.grad and hooks are LibTorch's own.
#include "core/runtime/training.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/function.h>

#include <algorithm>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

#include "core/script/tensor_obj.h"
#include "core/support/events.h"

namespace fl::runtime {

using script::CallArgs;
using script::Value;
using capture::ArgT;
using capture::OpNode;

namespace {

// A training compile's steps in the run's event log, on tracks of their own beside the entry's
// compile (a "compile ID" track holds one entry's compile): the training forward's on "training
// 0/0", the backward's (at the first backward()) on "backward 0/0". The profiler shows them,
// prefixed by which graph they built.
void logPhases(script::Interp& in, const std::string& id, const char* which, const Compiled& c) {
    events::Log& log = capture::session(in).events;
    if (!log.at(events::Level::Compile)) return;
    const std::string track = (std::string(which) == "backward" ? "backward " : "training ") + id;
    for (auto& p : c.phaseSpans)
        log.span(track, std::string(which) + " " + p.name, events::Category::Phase, p.beginNs, int64_t(p.ms * 1e6), events::PhaseFacts{id, "", events::ScriptStep::None});
}

// ------------------------------------------------------------------ runnable graphs
// The call a rule's node names, run through the interpreter as a script's call would be:
// "operator.mul" as the operator, "torch.Tensor.sum" as a method, "torch.nn.functional.pad" from
// its module.
script::OpInvoke targetInvoke(const std::string& target) {
    if (target.rfind("operator.", 0) == 0) {
        std::string fn = target.substr(9);
        for (int k = 0; k <= int(script::BinOpKind::BitAnd); ++k)
            if (fn == script::binOpFunction(script::BinOpKind(k))) {
                auto op = script::BinOpKind(k);
                return [op](script::Interp& in, CallArgs& ca) { return in.binary(op, ca.pos.at(0), ca.pos.at(1)); };
            }
        throw std::logic_error("no operator " + target);
    }
    if (target.rfind("torch.Tensor.", 0) == 0) {
        std::string name = target.substr(13);
        return [name](script::Interp& in, CallArgs& ca) {
            CallArgs rest;
            rest.pos.assign(ca.pos.begin() + 1, ca.pos.end());
            rest.kw = ca.kw;
            return in.call(in.getAttr(ca.pos.at(0), name), rest);
        };
    }
    // a module attribute, found from the root module: torch.nn.functional.pad, torch._C._nn.NAME
    std::vector<std::string> path;
    for (size_t b = 0, e; b <= target.size(); b = e + 1) {
        e = target.find('.', b);
        if (e == std::string::npos) e = target.size();
        path.push_back(target.substr(b, e - b));
    }
    return [path](script::Interp& in, CallArgs& ca) {
        Value v = in.findModule(path[0]);
        if (v.isNone()) throw std::logic_error("no module " + path[0]);
        for (size_t i = 1; i < path.size(); ++i) v = in.getAttr(v, path[i]);
        return in.call(v, ca);
    };
}

Value constValue(const graph::Const& c) {
    using K = graph::Const::Kind;
    switch (c.kind) {
    case K::None: return Value::none();
    case K::Bool: return Value::boolean(c.truth());
    case K::Int: return Value::integer(c.i);
    case K::Float: return Value::real(c.f);
    case K::Str: return script::makeStr(c.s);
    case K::Tuple: {
        std::vector<Value> items;
        for (auto& x : c.items) items.push_back(constValue(x));
        return script::makeTuple(std::move(items));
    }
    default: throw std::logic_error("a constant the derivative rules do not make");
    }
}

ArgT argOf(const graph::Arg& a) {
    ArgT r;
    switch (a.kind) {
    case graph::Arg::Kind::NodeRef:
        r.kind = ArgT::Ref;
        r.node = a.node->id;
        r.index = a.index;
        return r;
    case graph::Arg::Kind::Constant: r.c = constValue(a.value); return r;
    case graph::Arg::Kind::List:
    case graph::Arg::Kind::Tuple:
        r.kind = a.kind == graph::Arg::Kind::List ? ArgT::List : ArgT::Tuple;
        for (auto& it : a.items) r.items.push_back(argOf(it));
        return r;
    default: throw std::logic_error("a dict argument in a backward node");
    }
}

OpNode placeholderOf(const graph::Node& n) {
    OpNode p;
    p.placeholder = true;
    p.scalar = n.meta.empty();
    p.meta = n.meta;
    return p;
}

const graph::Node* outputOf(const graph::Graph& g) { return g.nodes().empty() ? nullptr : g.nodes().back().get(); }

// A reference to a node the partitioner rewrote (autograd::Training::rewritten) reads item 0 of
// its tuple, where the captured value is.
void redirectToItem0(ArgT& a, const std::set<int>& rewritten) {
    if (a.kind == ArgT::Ref && a.index < 0 && rewritten.count(a.node)) a.index = 0;
    for (auto& it : a.items) redirectToItem0(it, rewritten);
}

// A dropout in training mode as the training forward holds it (autograd::kDropoutWithNoise):
// (x * noise, noise), the noise eager's. At::dropout of ones laid out as x draws what
// at::dropout(x) draws (bernoulli_(1 - p) on empty_like(x), divided by 1 - p), and eager's result
// is x * noise. (On CUDA eager's dropout is native_dropout: its output, and its mask times the
// scale.)
script::Value dropoutWithNoise(script::Interp&, CallArgs& ca) {
    at::Tensor x = script::tensorOf(ca.pos.at(0));
    double p = ca.pos.at(1).num();
    at::Tensor out, noise;
    if (x.is_cuda()) {
        auto [o, mask] = at::native_dropout(x, p, true);
        out = o;
        noise = mask.to(x.scalar_type()).mul_(1.0 / (1.0 - p));
    } else {
        noise = at::dropout(at::ones_like(x), p, true);
        out = x.mul(noise);
    }
    return script::makeTuple({script::wrap(out), script::wrap(noise)});
}

// Whether the training forward draws dropout masks (the generator's state is then kept with the call).
bool drawsMasks(const TrainingCode& tc) {
    for (int id : tc.graphs.rewritten)
        if (tc.forwardGraph.nodes.at(size_t(id)).target == autograd::kDropoutWithNoise) return true;
    return false;
}

at::Tensor generatorState() {
    at::Generator gen = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    return gen.get_state();
}

void setGeneratorState(const at::Tensor& state) {
    at::Generator gen = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_state(state);
}

// The training forward's ops: the captured ones, with the nodes the partitioner rewrote made the
// library calls it wrote (and what reads them redirected to their first item).
void rewriteForwardOps(const autograd::Training& t, capture::CapturedGraph& F) {
    const std::set<int> rewritten(t.rewritten.begin(), t.rewritten.end());
    for (int id : t.rewritten) {
        const graph::Node& n = *t.forward.nodes().at(size_t(id));
        OpNode op;
        op.target = n.target;
        op.invoke = n.target == autograd::kDropoutWithNoise ? script::OpInvoke(dropoutWithNoise) : targetInvoke(n.target);
        for (auto& a : n.args) op.pos.push_back(argOf(a));
        for (auto& [k, a] : n.kwargs) op.kw.emplace_back(k, argOf(a));
        op.meta = n.meta;
        OpNode& old = F.nodes.at(size_t(id));
        op.span = old.span;
        op.modulePath = old.modulePath;
        old = std::move(op);
    }
    for (size_t i = 0; i < F.nodes.size(); ++i) {
        if (rewritten.count(int(i))) continue;
        for (auto& a : F.nodes[i].pos) redirectToItem0(a, rewritten);
        for (auto& [k, a] : F.nodes[i].kw) redirectToItem0(a, rewritten);
    }
    for (auto& o : F.outputs) redirectToItem0(o, rewritten);
}

// The backward graph as ops: placeholders, the captured forward ops it recomputes (their
// references moved to the saved values and recomputed nodes), the rules' calls.
bool buildBackwardGraph(const capture::CapturedGraph& g, TrainingCode& tc) {
    const autograd::Training& t = tc.graphs;
    capture::CapturedGraph& B = tc.backwardGraph;
    std::map<autograd::ValueRef, int> savedAt;
    std::map<int, int> recomputedAt;
    const std::set<int> rewritten(t.rewritten.begin(), t.rewritten.end());
    for (size_t i = 0; i < t.origin.size(); ++i) {
        const autograd::BackwardNode& o = t.origin[i];
        const graph::Node& n = *t.backward.nodes()[i];
        if (o.kind == autograd::BackwardNode::Saved) savedAt[t.saved[size_t(o.index)]] = int(i);
        if (o.kind == autograd::BackwardNode::Saved || o.kind == autograd::BackwardNode::Tangent) {
            B.nodes.push_back(placeholderOf(n));
            continue;
        }
        if (o.kind == autograd::BackwardNode::Rule) {
            OpNode op;
            op.target = n.target;
            op.invoke = targetInvoke(n.target);
            for (auto& a : n.args) op.pos.push_back(argOf(a));
            for (auto& [k, a] : n.kwargs) op.kw.emplace_back(k, argOf(a));
            op.meta = n.meta;
            B.nodes.push_back(std::move(op));
            continue;
        }
        OpNode op = g.nodes[size_t(o.index)];
        std::function<bool(ArgT&)> remap = [&](ArgT& a) {
            if (a.kind == ArgT::Src) return false;
            if (a.kind == ArgT::Ref) {
                if (a.index < 0 && rewritten.count(a.node)) a.index = 0;
                auto s = savedAt.find(autograd::ValueRef{a.node, a.index});
                if (s == savedAt.end() && a.index >= 0) s = savedAt.find(autograd::ValueRef{a.node, -1});
                if (s != savedAt.end()) {
                    a.node = s->second;
                    a.index = s->first.index == a.index ? -1 : a.index;
                    return true;
                }
                auto r = recomputedAt.find(a.node);
                if (r == recomputedAt.end()) return false;
                a.node = r->second;
                return true;
            }
            for (auto& it : a.items)
                if (!remap(it)) return false;
            return true;
        };
        for (auto& a : op.pos)
            if (!remap(a)) return false;
        for (auto& [k, a] : op.kw)
            if (!remap(a)) return false;
        recomputedAt[o.index] = int(i);
        B.nodes.push_back(std::move(op));
    }
    for (auto& a : outputOf(t.backward)->args) B.outputs.push_back(argOf(a));
    // which tangents each value depends on
    std::vector<std::set<int>> dep(B.nodes.size());
    std::function<void(const ArgT&, std::set<int>&)> collect = [&](const ArgT& a, std::set<int>& into) {
        if (a.kind == ArgT::Ref) into.insert(dep[size_t(a.node)].begin(), dep[size_t(a.node)].end());
        for (auto& it : a.items) collect(it, into);
    };
    for (size_t i = 0; i < B.nodes.size(); ++i) {
        if (t.origin[i].kind == autograd::BackwardNode::Tangent) dep[i].insert(t.origin[i].index);
        for (auto& a : B.nodes[i].pos) collect(a, dep[i]);
        for (auto& [k, a] : B.nodes[i].kw) collect(a, dep[i]);
    }
    for (auto& o : B.outputs) {
        std::set<int> d;
        collect(o, d);
        tc.outputTangents.emplace_back(d.begin(), d.end());
    }
    B.printable = std::move(tc.graphs.backward);
    B.ops = B.printable.callCount();
    return true;
}

// An output made from an input by view ops alone (the input itself: no op): the input's node,
// and in `chain` the view ops from the input out; -1 when the output is not one.
int viewOfInput(const capture::CapturedGraph& g, const Compiled& c, const ArgT& o, std::vector<int>& chain) {
    chain.clear();
    if (o.kind != ArgT::Ref) return -1;
    int n = o.node;
    while (!g.nodes[size_t(n)].placeholder) {
        const OpNode& v = g.nodes[size_t(n)];
        if (!c.lowered.info[size_t(n)].viewOp || v.pos.empty() || v.pos[0].kind != ArgT::Ref) return -1;
        chain.push_back(n);
        n = v.pos[0].node;
    }
    std::reverse(chain.begin(), chain.end());
    return n;
}

// The outputs that are inputs or views of inputs, as eager hands them out: the input itself, or
// its view ops replayed on it with grad, so the autograd graph links the view to the input
// (LibTorch's view backward, as AOTAutograd regenerates such outputs outside the compiled
// function). The compiled forward computed them without grad.
void regenerateViews(script::Interp& in, const capture::CapturedGraph& g, const Compiled& c, const std::vector<int>& outputs,
                     std::vector<Value>& env) {
    std::set<int> done;
    std::vector<int> chain;
    for (int i : outputs) {
        const ArgT& o = g.outputs.at(size_t(i));
        int base = viewOfInput(g, c, o, chain);
        if (base < 0 || chain.empty() || !done.insert(o.node).second) continue;
        Value v = env[size_t(base)];
        for (int n : chain) {
            const OpNode& op = g.nodes[size_t(n)];
            CallArgs ca;
            const ArgT& from = op.pos[0];
            ca.pos.push_back(from.index < 0 ? v : v.as<script::TupleObj>()->items.at(size_t(from.index)));
            for (size_t a = 1; a < op.pos.size(); ++a) ca.pos.push_back(capture::instantiateArg(op.pos[a], env, nullptr));
            for (auto& [k, a] : op.kw) ca.kw.emplace_back(k, capture::instantiateArg(a, env, nullptr));
            v = op.invoke(in, ca);
        }
        env[size_t(o.node)] = v;
    }
}

// ------------------------------------------------------------------ the autograd node
struct CompiledFunctionBackward : torch::autograd::Node {
    std::shared_ptr<TrainingCode> tc;
    script::Interp* in = nullptr;
    const capture::CapturedGraph* g = nullptr; // the captured forward (for a double backward)
    std::string compileId;
    std::vector<Value> placeholders;             // its placeholders' values at the call
    std::vector<Value> saved;
    std::vector<std::pair<at::Tensor, int64_t>> versions; // saved tensors and their version at the call
    at::Tensor rngState; // the CPU generator's state before the call, where the call drew dropout masks
    bool released = false;

    std::string name() const override { return "CompiledFunctionBackward"; }
    void release_variables() override {
        saved.clear();
        placeholders.clear();
        versions.clear();
        released = true;
    }

    // LibTorch's engine passes on std::exception only: a script error or a cancelled run inside
    // the backward graph's ops (run through the interpreter) becomes a RuntimeError of backward().
    torch::autograd::variable_list apply(torch::autograd::variable_list&& grads) override {
        try {
            return run(std::move(grads));
        } catch (std::exception&) {
            throw;
        } catch (script::PyException& e) {
            throw std::runtime_error("the compiled backward failed: " + in->exceptionMessage(e.exc));
        } catch (...) {
            throw std::runtime_error("the compiled backward was interrupted");
        }
    }

    torch::autograd::variable_list run(torch::autograd::variable_list&& grads) {
        if (released)
            throw std::runtime_error("Trying to backward through the graph a second time (or directly access saved tensors after they have "
                                     "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
                                     "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
                                     "if you need to access saved tensors after calling backward.");
        for (auto& [t, v] : versions)
            if (t._version() != v)
                throw std::runtime_error("one of the variables needed for gradient computation has been modified by an inplace operation: [" +
                                         std::string(t.toString()) + " " + c10::str(t.sizes()) + "], which is output 0 of " + name() +
                                         ", is at version " + std::to_string(t._version()) + "; expected version " + std::to_string(v) + " instead.");
        if (at::GradMode::is_enabled()) return differentiable(grads);
        at::NoGradGuard noGrad;
        const capture::CapturedGraph& B = tc->backwardGraph;
        if (!tc->backward) {
            tc->backward = std::make_shared<Compiled>();
            tc->backward->compileId = compileId + " backward"; // its kernels' events name it so
            fl::compile::run(B, 0, *tc->backward, *tc->backward);
            logPhases(*in, compileId, "backward", *tc->backward);
        }
        std::vector<Value> env(B.nodes.size());
        const auto& origin = tc->graphs.origin;
        for (size_t i = 0; i < origin.size(); ++i) {
            if (origin[i].kind == autograd::BackwardNode::Saved) env[i] = saved.at(size_t(origin[i].index));
            if (origin[i].kind != autograd::BackwardNode::Tangent) continue;
            size_t k = size_t(origin[i].index);
            if (k < grads.size() && grads[k].defined()) {
                env[i] = script::wrap(grads[k]);
            } else {
                std::vector<int64_t> sizes;
                for (auto& d : B.nodes[i].meta.at(0).shape) sizes.push_back(d.value);
                env[i] = script::wrap(at::zeros(sizes));
            }
        }
        events::Log& log = capture::session(*in).events;
        const bool timed = log.at(events::Level::Calls);
        const events::Ns t0 = timed ? events::now() : 0;
        bool compiled = tc->backward->execute(*in, B, env);
        if (!compiled) {
            runOpByOp(*in, B, env);
            ++tc->backwardFallbacks;
        }
        // each backward() on a track beside the calls', so forward and backward cost show side by side
        if (timed) log.span("runtime: backward", "backward " + compileId, events::Category::Graph, t0, events::now() - t0, events::GraphFacts{compileId, !compiled});
        ++tc->backwardCalls;
        torch::autograd::variable_list result;
        for (size_t j = 0; j < B.outputs.size(); ++j) {
            bool given = false;
            for (int k : tc->outputTangents[j]) given = given || (size_t(k) < grads.size() && grads[size_t(k)].defined());
            Value v = capture::instantiateArg(B.outputs[j], env, nullptr);
            result.push_back(given && v.isTensor() ? script::tensorOf(v) : at::Tensor());
        }
        return result;
    }

    // backward(create_graph=True): the gradients must themselves be differentiable, so the
    // captured forward reruns eagerly with grad from the call's inputs and LibTorch differentiates it.
    torch::autograd::variable_list differentiable(const torch::autograd::variable_list& grads) {
        const autograd::Training& t = tc->graphs;
        std::vector<Value> env = placeholders;
        env.resize(g->nodes.size());
        if (rngState.defined()) { // the rerun's dropouts draw the masks the call drew
            at::Tensor now = generatorState();
            setGeneratorState(rngState);
            try {
                runOpByOp(*in, *g, env);
            } catch (...) {
                setGeneratorState(now);
                throw;
            }
            setGeneratorState(now);
        } else {
            runOpByOp(*in, *g, env);
        }
        std::vector<at::Tensor> outs, gouts, wrt;
        for (size_t k = 0; k < t.tangents.size(); ++k) {
            if (k >= grads.size() || !grads[k].defined()) continue;
            outs.push_back(script::tensorOf(capture::instantiateArg(g->outputs[size_t(t.tangents[k])], env, nullptr)));
            gouts.push_back(grads[k]);
        }
        for (int id : t.gradInputs) wrt.push_back(script::tensorOf(env[size_t(id)]));
        torch::autograd::variable_list result(wrt.size());
        if (!outs.empty()) result = torch::autograd::grad(outs, wrt, gouts, /*retain_graph=*/true, /*create_graph=*/true, /*allow_unused=*/true);
        return result;
    }
};

} // namespace

capture::BackwardFacts Compiled::backwardFacts() const {
    capture::BackwardFacts f;
    if (!training) return f;
    const TrainingCode& tc = *training;
    f.present = true;
    f.compiled = tc.error.empty();
    f.why = tc.error;
    f.nodes = tc.backwardGraph.ops;
    f.saved = int(tc.graphs.savedCount());
    f.recomputed = int(tc.graphs.recomputed());
    f.kernels = tc.backward && tc.backward->ok ? int(tc.backward->kernels.size()) : -1;
    f.calls = tc.calls;
    f.backwardCalls = tc.backwardCalls;
    f.backwardFallbacks = tc.backwardFallbacks;
    return f;
}

void runOpByOp(script::Interp& in, const capture::CapturedGraph& g, std::vector<Value>& env) {
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const OpNode& n = g.nodes[i];
        if (n.placeholder) continue;
        CallArgs ca;
        for (auto& a : n.pos) ca.pos.push_back(capture::instantiateArg(a, env, nullptr));
        for (auto& [k, a] : n.kw) ca.kw.emplace_back(k, capture::instantiateArg(a, env, nullptr));
        env[i] = n.invoke(in, ca);
    }
}

std::shared_ptr<TrainingCode> makeTraining(const capture::CapturedGraph& g, const Compiled& c) {
    // a graph traced with grad on that computes something from an input requiring grad
    bool anyGrad = false;
    for (auto& n : g.nodes)
        if (!n.placeholder && !n.meta.empty() && n.meta[0].requiresGrad) anyGrad = true;
    if (!anyGrad) return nullptr;
    auto tc = std::make_shared<TrainingCode>();
    std::vector<int> aliased, chain; // outputs handed out as views of inputs: no tangent
    for (size_t i = 0; i < g.outputs.size(); ++i)
        if (viewOfInput(g, c, g.outputs[i], chain) >= 0) aliased.push_back(int(i));
    tc->graphs = autograd::buildTraining(g.printable, aliased);
    if (!tc->graphs.ok) {
        tc->error = tc->graphs.error;
        return tc;
    }
    capture::CapturedGraph& F = tc->forwardGraph;
    F.nodes = g.nodes;
    F.outputs = g.outputs;
    try {
        rewriteForwardOps(tc->graphs, F);
    } catch (std::exception& e) {
        tc->error = e.what();
        return tc;
    }
    for (auto& v : tc->graphs.saved)
        if (!g.nodes[size_t(v.node)].placeholder) {
            ArgT a;
            a.kind = ArgT::Ref;
            a.node = v.node;
            a.index = v.index;
            F.outputs.push_back(a);
        }
    F.printable = std::move(tc->graphs.forward);
    F.ops = g.ops;
    try {
        if (!buildBackwardGraph(g, *tc)) tc->error = "a recomputed op reads a value from outside the graph";
    } catch (std::exception& e) {
        tc->error = e.what();
    }
    return tc;
}

bool runTraining(script::Interp& in, const capture::CapturedGraph& g, Compiled& c, std::vector<Value>& env) {
    std::shared_ptr<TrainingCode> tc = c.training;
    if (!tc || !tc->error.empty()) return false;
    const autograd::Training& t = tc->graphs;
    // Outputs that get the backward node. A view of a computed value (not of an input, and whose
    // base is not returned too) is handed out as a copy with its strides: nothing else can see
    // the storage it shares, and a view made without grad cannot carry a gradient edge.
    std::vector<bool> copyOut(t.tangents.size(), false);
    for (size_t k = 0; k < t.tangents.size(); ++k) {
        const ArgT& o = g.outputs.at(size_t(t.tangents[k]));
        const char* why = nullptr;
        if (o.kind != ArgT::Ref) why = "an output that is not a graph value";
        else if (g.nodes[size_t(o.node)].placeholder) why = "an output that is an input";
        else if (o.index >= 0 || c.lowered.info[size_t(o.node)].viewOp) {
            int base = o.node;
            while (base >= 0 && !g.nodes[size_t(base)].placeholder && c.lowered.info[size_t(base)].viewOp) {
                const OpNode& v = g.nodes[size_t(base)];
                base = !v.pos.empty() && v.pos[0].kind == ArgT::Ref ? v.pos[0].node : -1;
            }
            if (base < 0 || g.nodes[size_t(base)].placeholder) why = "an output that is a view of an input";
            for (auto& other : g.outputs)
                if (other.kind == ArgT::Ref && other.node == base) why = "an output that is a view of another output";
            copyOut[k] = true;
        }
        if (why) {
            tc->error = std::string(why) + ": the outputs cannot carry the compiled backward";
            return false;
        }
    }
    if (!tc->forward) {
        tc->forward = std::make_shared<Compiled>();
        tc->forward->compileId = c.compileId + " training forward";
        fl::compile::run(tc->forwardGraph, 0, *tc->forward, *tc->forward);
        logPhases(in, c.compileId, "training forward", *tc->forward);
        capture::Session& s = capture::session(in);
        if (s.logs.aotJointGraph)
            s.log(c.compileId, "aot_joint_graph", "TRACED GRAPH\n ===== Joint graph " + c.compileId + " =====\n" + graph::printGraph(t.joint, "forward"));
        if (s.logs.aotGraphs)
            s.log(c.compileId, "aot_graphs", "TRACED GRAPH\n ===== Forward graph " + c.compileId + " =====\n" + graph::printGraph(tc->forwardGraph.printable, "forward") +
                                                 "\n ===== Backward graph " + c.compileId + " =====\n" + graph::printGraph(tc->backwardGraph.printable, "forward"));
    }
    if (!tc->forward->ok) {
        tc->error = "the training forward did not compile: " + tc->forward->error;
        return false;
    }
    at::Tensor rngState = drawsMasks(*tc) ? generatorState() : at::Tensor();
    {
        at::NoGradGuard noGrad;
        if (!tc->forward->execute(in, tc->forwardGraph, env)) {
            if (rngState.defined()) setGeneratorState(rngState); // the path the call takes instead draws the masks, as eager would
            return false;
        }
    }
    auto node = std::make_shared<CompiledFunctionBackward>();
    node->rngState = rngState;
    node->tc = tc;
    node->in = &in;
    node->g = &g;
    node->compileId = c.compileId;
    for (size_t i = 0; i < g.nodes.size(); ++i) node->placeholders.push_back(g.nodes[i].placeholder ? env[i] : Value());
    for (auto& v : t.saved) {
        Value x = env[size_t(v.node)];
        if (v.index >= 0) x = x.as<script::TupleObj>()->items.at(size_t(v.index));
        if (x.isTensor()) {
            at::Tensor s = script::tensorOf(x).detach(); // shares storage and version counter, not the grad_fn
            node->versions.emplace_back(s, s._version());
            x = script::wrap(s);
        }
        node->saved.push_back(x);
    }
    for (int k : t.rewritten) // the captured value: item 0 of the rewritten call's tuple (a graph output may read it)
        if (env[size_t(k)].is(script::OK::Tuple)) env[size_t(k)] = env[size_t(k)].as<script::TupleObj>()->items.at(0);
    regenerateViews(in, g, c, t.aliasedOutputs, env);
    std::vector<at::Tensor> inputs;
    for (int id : t.gradInputs) inputs.push_back(script::tensorOf(env[size_t(id)]));
    node->set_next_edges(torch::autograd::collect_next_edges(inputs));
    for (size_t k = 0; k < t.tangents.size(); ++k) {
        const ArgT& o = g.outputs[size_t(t.tangents[k])];
        Value* slot = &env[size_t(o.node)];
        if (o.index >= 0) slot = &slot->as<script::TupleObj>()->items.at(size_t(o.index));
        if (copyOut[k]) {
            const at::Tensor& v = script::tensorOf(*slot);
            at::Tensor copy = v.is_non_overlapping_and_dense() ? at::empty_strided(v.sizes(), v.strides(), v.options()) : at::empty_like(v, at::MemoryFormat::Contiguous);
            copy.copy_(v);
            *slot = script::wrap(copy);
        }
        torch::autograd::create_gradient_edge(script::tensorOf(*slot), node);
    }
    ++tc->calls;
    return true;
}

} // namespace fl::runtime
