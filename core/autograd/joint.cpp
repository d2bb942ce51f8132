// The joint graph (forward nodes, then the backward the derivative rules write for them, in
// reverse order) and the partitioner that splits it into a forward and a backward graph.
#include <algorithm>
#include <map>
#include <set>

#include "core/autograd/autograd.h"
#include "core/autograd/rules.h"
#include "core/graph/ops.h"

namespace fl::autograd {

using detail::Builder;
using graph::Arg;
using graph::Node;
using graph::TensorMeta;

size_t Training::recomputed() const {
    return size_t(std::count_if(decisions.begin(), decisions.end(), [](const Decision& d) { return !d.saved; }));
}

std::vector<std::string> differentiableOps() { return detail::ruleNames(); }

namespace {

bool isFloat(const TensorMeta& m) { return m.dtype == "float32" || m.dtype == "float64" || m.dtype == "float16" || m.dtype == "bfloat16"; }

int64_t bytesOf(const TensorMeta& m) {
    int64_t n = detail::numel(detail::shapeOf(m));
    int64_t e = m.dtype == "float64" || m.dtype == "int64" ? 8 : m.dtype == "bool" || m.dtype == "uint8" || m.dtype == "int8" ? 1 : m.dtype == "float16" || m.dtype == "bfloat16" ? 2 : 4;
    return n * e;
}

std::string where(const Node& n) { return n.span.file.empty() ? "" : " (" + n.span.file + ":" + std::to_string(n.span.line) + ")"; }

// A node of one graph copied into another, its references mapped by `map`.
Node& copyNode(graph::Graph& into, const Node& n, const std::function<Arg(const Arg&)>& map) {
    std::function<Arg(const Arg&)> remap = [&](const Arg& a) -> Arg {
        if (a.kind == Arg::Kind::NodeRef) return map(a);
        Arg r = a;
        for (auto& it : r.items) it = remap(it);
        return r;
    };
    Node* c;
    if (n.kind == graph::NodeKind::Placeholder) {
        c = &into.addPlaceholder(n.target, n.meta.empty() ? TensorMeta{} : n.meta[0]);
        c->meta = n.meta;
    } else {
        std::vector<Arg> args;
        for (auto& a : n.args) args.push_back(remap(a));
        std::vector<std::pair<std::string, Arg>> kw;
        for (auto& [k, a] : n.kwargs) kw.emplace_back(k, remap(a));
        c = &into.addCall(n.target, std::move(args), std::move(kw));
        c->meta = n.meta;
    }
    c->span = n.span;
    c->modulePath = n.modulePath;
    c->userStack = n.userStack;
    return *c;
}

// The meta of a node's result, or of item `index` of its tuple result.
const TensorMeta* metaOfValue(const Node& n, int index) { return detail::metaOf(index >= 0 ? Arg::item(&n, index) : Arg::ref(&n)); }

const Node* outputNode(const graph::Graph& g) {
    for (auto& n : g.nodes())
        if (n->kind == graph::NodeKind::Output) return n.get();
    return nullptr;
}

// Whether the partitioner may recompute a node in the backward: pointwise and view ops with no
// side effects (cheap next to the memory a saved value costs); matmuls, reductions, library calls
// and random ops are always saved.
bool recomputable(const Node& n) {
    if (n.kind != graph::NodeKind::Call || graph::impure(n.target) || graph::mutatesInPlace(n.target, false)) return false;
    auto op = graph::opOfTarget(n.target);
    if (!op) return false;
    switch (graph::info(*op).family) {
    case graph::Family::UnaryMath: case graph::Family::Activation: case graph::Family::Arith: case graph::Family::Compare:
    case graph::Family::Logical: case graph::Family::Select: case graph::Family::Convert: case graph::Family::Reshape:
    case graph::Family::Index: case graph::Family::Generate:
        return true;
    default: return false;
    }
}

struct JointBuild {
    const graph::Graph& fwd;
    Training& t;
    size_t fwdCount = 0;   // forward nodes before its output node (same ids in the joint graph)
    size_t firstBackward = 0; // joint id of the first node the rules made
    std::vector<const Node*> j; // forward node id -> its joint copy
    std::vector<const Node*> tangentNodes;

    bool needsGrad(const Arg& a) const {
        if (a.kind != Arg::Kind::NodeRef || !a.node || size_t(a.node->id) >= fwdCount) return false;
        const TensorMeta* m = detail::metaOf(a);
        return m && isFloat(*m) && m->requiresGrad;
    }

    bool staticShapes() {
        for (auto& n : fwd.nodes())
            for (auto& m : n->meta)
                for (auto& d : m.shape)
                    if (d.isSymbolic()) {
                        t.error = "a dynamic shape (" + d.symbol + " in " + n->name + "): compiled backward needs static shapes";
                        return false;
                    }
        return true;
    }

    bool build() {
        if (!staticShapes()) return false;
        const Node* out = outputNode(fwd);
        if (!out) { t.error = "the graph has no output"; return false; }
        graph::Graph& J = t.joint;
        std::vector<bool> rewritten;
        auto toJoint = [&](const Arg& a) {
            Arg r = a;
            r.node = j.at(size_t(a.node->id));
            if (r.index < 0 && rewritten[size_t(a.node->id)]) r.index = 0;
            return r;
        };
        for (auto& n : fwd.nodes()) {
            if (n->kind == graph::NodeKind::Output) continue;
            Node& c = copyNode(J, *n, toJoint);
            bool re = detail::rewriteForward(c, [&](const Arg& a) { return needsGrad(a); });
            if (re) t.rewritten.push_back(c.id);
            rewritten.push_back(re);
            j.push_back(&c);
            ++fwdCount;
        }
        std::map<ValueRef, Arg> grad;
        Builder b(J);
        auto accumulate = [&](const Arg& value, const Arg& g) {
            ValueRef key{value.node->id, value.index};
            auto it = grad.find(key);
            if (it == grad.end()) grad.emplace(key, g);
            else it->second = b.add(it->second, g);
        };
        std::vector<Arg> outs;
        firstBackward = fwdCount;
        t.forwardOutputs = int(out->args.size());
        for (size_t i = 0; i < out->args.size(); ++i) {
            Arg o = out->args[i].kind == Arg::Kind::NodeRef ? toJoint(out->args[i]) : out->args[i];
            outs.push_back(o);
            if (!needsGrad(o) || std::count(t.aliasedOutputs.begin(), t.aliasedOutputs.end(), int(i))) continue;
            bool again = false; // the same value returned twice gets one tangent (eager returns one tensor twice)
            for (int p : t.tangents) again = again || (outs[size_t(p)].node == o.node && outs[size_t(p)].index == o.index);
            if (again) continue;
            TensorMeta m = *detail::metaOf(o);
            m.requiresGrad = false;
            graph::Node& tan = J.addPlaceholder("tangents_" + std::to_string(t.tangents.size() + 1), m);
            t.tangents.push_back(int(i));
            tangentNodes.push_back(&tan);
            accumulate(o, Arg::ref(&tan));
        }
        for (size_t id = fwdCount; id-- > 0;) {
            const Node& n = *j[id];
            if (n.kind != graph::NodeKind::Call) continue;
            std::vector<Arg> gradOut;
            bool any = false;
            size_t items = std::max<size_t>(1, n.meta.size());
            for (size_t i = 0; i < items; ++i) {
                auto it = grad.find(ValueRef{int(id), n.meta.size() > 1 ? int(i) : -1});
                gradOut.push_back(it == grad.end() ? Arg::none() : it->second);
                any = any || it != grad.end();
            }
            if (!any) continue;
            std::vector<detail::InputGrad> inputs;
            std::string why;
            if (!detail::differentiate(b, n, gradOut, [&](const Arg& a) { return needsGrad(a); }, inputs, why)) {
                t.error = n.name + " = " + n.target + where(n) + ": " + why;
                return false;
            }
            for (auto& ig : inputs) accumulate(ig.input, ig.grad);
        }
        t.jointBackwardNodes = b.calls();
        for (size_t id = 0; id < fwdCount; ++id) {
            const Node& n = *j[id];
            if (n.kind != graph::NodeKind::Placeholder || !needsGrad(Arg::ref(&n))) continue;
            auto it = grad.find(ValueRef{int(id), -1});
            outs.push_back(it == grad.end() ? Arg::none() : it->second);
            t.gradInputs.push_back(int(id));
        }
        if (t.gradInputs.empty()) { t.error = "no input requires grad"; return false; }
        J.setOutput(outs);
        return true;
    }
};

// Splits the joint graph: what the backward reads of the forward is saved or recomputed.
struct Partition {
    const JointBuild& jb;
    Training& t;
    std::set<ValueRef> saved;
    std::set<ValueRef> needed; // what the rules' nodes read of the forward: kept (or recomputed) in any case
    std::set<int> recompute; // forward node ids recomputed in the backward

    // The values a recomputation of `v` would read that are not recomputed themselves.
    void frontier(int id, std::set<ValueRef>& f, std::set<int>& nodes) {
        if (!nodes.insert(id).second) return;
        const Node& n = *jb.j[size_t(id)];
        std::function<void(const Arg&)> visit = [&](const Arg& a) {
            if (a.kind == Arg::Kind::NodeRef) {
                const Node& m = *a.node;
                if (recomputable(m)) frontier(m.id, f, nodes);
                else f.insert(ValueRef{m.id, a.index});
            }
            for (auto& it : a.items) visit(it);
        };
        for (auto& a : n.args) visit(a);
        for (auto& [k, a] : n.kwargs) visit(a);
    }

    int64_t cost(const ValueRef& v) const {
        const Node& n = *jb.j[size_t(v.node)];
        if (n.kind == graph::NodeKind::Placeholder || saved.count(v) || needed.count(v)) return 0;
        const TensorMeta* m = metaOfValue(n, v.index);
        return m ? bytesOf(*m) : 0;
    }

    void decide(const ValueRef& v) {
        const Node& n = *jb.j[size_t(v.node)];
        Decision d;
        d.value = v;
        d.name = n.name + (v.index >= 0 ? "[" + std::to_string(v.index) + "]" : "");
        const TensorMeta* m = metaOfValue(n, v.index);
        d.bytes = m ? bytesOf(*m) : 0;
        if (n.kind == graph::NodeKind::Placeholder) {
            d.reason = "an input of the graph: the backward reads it, no copy is kept";
            saved.insert(v);
        } else if (!recomputable(n)) {
            auto op = graph::opOfTarget(n.target);
            d.reason = std::string("the output of ") + (op ? graph::familyName(graph::info(*op).family) : "a library call") + " op " +
                       graph::baseName(n.target) + ": too costly to compute twice";
            saved.insert(v);
        } else {
            std::set<ValueRef> f;
            std::set<int> nodes;
            frontier(v.node, f, nodes);
            int64_t extra = 0;
            std::string from;
            for (auto& x : f) {
                extra += cost(x);
                const Node& fn = *jb.j[size_t(x.node)];
                from += (from.empty() ? "" : ", ") + fn.name + (x.index >= 0 ? "[" + std::to_string(x.index) + "]" : "");
            }
            // strictly fewer bytes, or a view (no work): where keeping its sources costs as much as
            // keeping it (a relu of a batch_norm whose output nothing else reads), recomputing
            // only adds work
            auto op = graph::opOfTarget(n.target);
            bool view = op && graph::info(*op).family == graph::Family::Reshape;
            if (extra < d.bytes || (extra == d.bytes && view)) {
                d.saved = false;
                const std::string source = from.empty() ? std::string("constants") : from;
                d.reason = extra < d.bytes ? (view ? "a view of " : "pointwise from ") + source + ": recomputing it keeps " +
                                                 std::to_string(d.bytes - extra) + " bytes fewer alive between forward and backward"
                                           : "a view of " + source + ": recomputing it costs no work and keeps no more bytes";
                for (auto& x : f) {
                    if (!saved.count(x)) {
                        const Node& fn = *jb.j[size_t(x.node)];
                        const TensorMeta* xm = metaOfValue(fn, x.index);
                        Decision e;
                        e.value = x;
                        e.name = fn.name + (x.index >= 0 ? "[" + std::to_string(x.index) + "]" : "");
                        e.bytes = xm ? bytesOf(*xm) : 0;
                        saved.insert(x);
                        e.reason = fn.kind == graph::NodeKind::Placeholder ? "an input of the graph: the backward reads it, no copy is kept"
                                                                          : "read to recompute " + n.name;
                        t.decisions.push_back(e);
                    }
                }
                recompute.insert(nodes.begin(), nodes.end());
            } else {
                d.reason = "pointwise, but recomputing it would keep " + std::to_string(extra) + " bytes of " + from + " instead of its " +
                           std::to_string(d.bytes);
                saved.insert(v);
            }
        }
        t.decisions.push_back(d);
    }

    void run() {
        const graph::Graph& J = t.joint;
        std::function<void(const Arg&)> visit = [&](const Arg& a) {
            if (a.kind == Arg::Kind::NodeRef && size_t(a.node->id) < jb.fwdCount) needed.insert(ValueRef{a.node->id, a.index});
            for (auto& it : a.items) visit(it);
        };
        for (size_t id = jb.firstBackward; id < J.nodes().size(); ++id) {
            const Node& n = *J.nodes()[id];
            if (n.kind != graph::NodeKind::Call) continue;
            for (auto& a : n.args) visit(a);
            for (auto& [k, a] : n.kwargs) visit(a);
        }
        for (auto& v : needed)
            if (!saved.count(v) && !recompute.count(v.node)) decide(v);
        for (auto& v : saved) t.saved.push_back(v); // forward order (ValueRef orders by node id)
    }
};

// The training forward: the captured graph (its nodes as the joint graph has them, rewritten
// ones included), also returning the saved values it computes.
void buildForward(const JointBuild& jb, Training& t) {
    std::vector<const Node*> map;
    auto to = [&](const Arg& a) { Arg r = a; r.node = map.at(size_t(a.node->id)); return r; };
    for (size_t id = 0; id < jb.fwdCount; ++id) map.push_back(&copyNode(t.forward, *jb.j[id], to));
    const Node* out = outputNode(t.joint);
    std::vector<Arg> outs;
    for (size_t i = 0; i < size_t(t.forwardOutputs); ++i) {
        const Arg& a = out->args[i];
        outs.push_back(a.kind == Arg::Kind::NodeRef ? to(a) : a);
    }
    for (auto& v : t.saved)
        if (jb.fwd.nodes()[size_t(v.node)]->kind != graph::NodeKind::Placeholder)
            outs.push_back(v.index >= 0 ? Arg::item(map[size_t(v.node)], v.index) : Arg::ref(map[size_t(v.node)]));
    t.forward.setOutput(outs);
}

// The backward: saved values and tangents in, recomputed forward nodes, then the rules' nodes.
void buildBackward(const JointBuild& jb, const Partition& p, Training& t) {
    graph::Graph& B = t.backward;
    const graph::Graph& J = t.joint;
    std::map<ValueRef, const Node*> savedAt;
    std::map<int, const Node*> at; // joint node -> backward node (recomputed, tangent or rule)
    for (size_t i = 0; i < t.saved.size(); ++i) {
        const ValueRef& v = t.saved[i];
        const Node& n = *jb.j[size_t(v.node)];
        const TensorMeta* m = metaOfValue(n, v.index);
        Node& ph = B.addPlaceholder(n.kind == graph::NodeKind::Placeholder ? n.name : n.name + (v.index >= 0 ? "_" + std::to_string(v.index) : ""),
                                    m ? *m : TensorMeta{});
        if (!m) ph.meta.clear();
        savedAt[v] = &ph;
        t.origin.push_back({BackwardNode::Saved, int(i)});
    }
    for (size_t k = 0; k < t.tangents.size(); ++k) {
        const Node& tan = *jb.tangentNodes[k];
        at[tan.id] = &copyNode(B, tan, [](const Arg& a) { return a; });
        t.origin.push_back({BackwardNode::Tangent, int(k)});
    }
    auto map = [&](const Arg& a) -> Arg {
        int id = a.node->id;
        if (size_t(id) < jb.fwdCount) {
            auto s = savedAt.find(ValueRef{id, a.index});
            if (s != savedAt.end()) return Arg::ref(s->second);
            if (a.index < 0) {
                auto whole = savedAt.find(ValueRef{id, -1});
                if (whole != savedAt.end()) return Arg::ref(whole->second);
            }
        }
        Arg r = a;
        r.node = at.at(id);
        return r;
    };
    for (size_t id = 0; id < jb.fwdCount; ++id)
        if (p.recompute.count(int(id))) {
            at[int(id)] = &copyNode(B, *jb.j[id], map);
            t.origin.push_back({BackwardNode::Recomputed, int(id)});
        }
    for (size_t id = jb.firstBackward; id < J.nodes().size(); ++id) {
        const Node& n = *J.nodes()[id];
        if (n.kind != graph::NodeKind::Call) continue;
        at[n.id] = &copyNode(B, n, map);
        t.origin.push_back({BackwardNode::Rule, -1});
    }
    const Node* out = outputNode(J);
    std::vector<Arg> grads;
    for (size_t i = size_t(t.forwardOutputs); i < out->args.size(); ++i) {
        const Arg& a = out->args[i];
        grads.push_back(a.kind == Arg::Kind::NodeRef ? map(a) : a);
    }
    B.setOutput(grads);
}

} // namespace

Training buildTraining(const graph::Graph& forward, const std::vector<int>& aliasedOutputs) {
    Training t;
    t.aliasedOutputs = aliasedOutputs;
    JointBuild jb{forward, t};
    if (!jb.build()) return t;
    Partition p{jb, t};
    p.run();
    buildForward(jb, t);
    buildBackward(jb, p, t);
    t.ok = true;
    return t;
}

std::string printJoint(const Training& t) { return graph::printGraph(t.joint, "joint_fn"); }

std::string printForwardBackward(const Training& t) {
    return "===== Forward graph =====\n" + graph::printGraph(t.forward) + "\n===== Backward graph =====\n" + graph::printGraph(t.backward);
}

} // namespace fl::autograd
