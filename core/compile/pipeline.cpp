// The compile pipeline (see pipeline.h): the passes, and run(), which calls them in order and is
// the one place that times and logs them.
#include "core/compile/pipeline.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>
#include <functional>
#include <set>

#include "core/graph/ops.h"
#include "core/jit/jit.h"
#include "core/support/events.h"

namespace fl::compile {

using namespace lower;
using capture::PhaseSpan;

namespace {

void loadsOf(const SE& e, std::set<int>& out) {
    if (e->kind == SExpr::Load) {
        out.insert(e->buffer);
        for (auto& v : indexValues(*e)) loadsOf(v, out); // an embedding's row numbers
    }
    if (e->kind == SExpr::Scalar) out.insert(e->buffer);
    for (auto& a : e->args) loadsOf(a, out);
}

// Program nodes whose buffers a graph node's value is made from (through views).
void graphDeps(const Lowered& l, const graph::Arg& a, std::set<int>& out, int depth = 0) {
    if (depth > 10000) return;
    if (a.kind == graph::Arg::Kind::NodeRef && a.node && size_t(a.node->id) < l.info.size()) {
        const GraphNodeInfo& gi = l.info[a.node->id];
        if (gi.viewOp) {
            for (auto& x : a.node->args) graphDeps(l, x, out, depth + 1);
            for (auto& [k, x] : a.node->kwargs) graphDeps(l, x, out, depth + 1);
        } else if (gi.value.buffer >= 0) {
            out.insert(gi.value.buffer);
        }
        for (auto& it : gi.items)
            if (it.buffer >= 0 && !gi.viewOp) out.insert(it.buffer);
    }
    for (auto& x : a.items) graphDeps(l, x, out, depth + 1);
}

// The graph as text for its cache key: targets, arguments (constants as their exact Python text),
// tensor metadata and outputs; not names, source lines or module paths, which do not change what
// it computes.
std::string canonicalGraph(const graph::Graph& g) {
    std::string s;
    std::function<void(const graph::Arg&)> arg = [&](const graph::Arg& a) {
        switch (a.kind) {
        case graph::Arg::Kind::Constant: s += a.constant; break;
        case graph::Arg::Kind::NodeRef:
            s += "%" + std::to_string(a.node ? a.node->id : -1) + (a.index >= 0 ? "[" + std::to_string(a.index) + "]" : "");
            break;
        default:
            s += a.kind == graph::Arg::Kind::Dict ? "{" : "(";
            for (auto& x : a.items) {
                arg(x);
                s += ",";
            }
            s += a.kind == graph::Arg::Kind::Dict ? "}" : ")";
        }
    };
    for (auto& n : g.nodes()) {
        if (n->kind == graph::NodeKind::Output) {
            for (auto& o : n->args) arg(o);
            continue;
        }
        s += n->kind == graph::NodeKind::Placeholder ? (n->meta.empty() ? "sym" : "in") : n->target;
        s += "(";
        for (auto& a : n->args) {
            arg(a);
            s += ",";
        }
        for (auto& [k, a] : n->kwargs) {
            s += k + "=";
            arg(a);
            s += ",";
        }
        s += ")";
        for (auto& m : n->meta) s += graph::formatMeta(m);
        s += ";";
    }
    return s;
}

// The JIT's own measurements of one compile, as steps laid end to end from `begin` in the order
// they happen (cache lookup, plugin load, frontend, optimisation, machine code, load, cache write).
void jitSteps(const jit::CompileOutcome& out, events::Ns begin, std::vector<PhaseSpan>& spans) {
    events::Ns at = begin;
    auto add = [&](const char* name, double ms) {
        if (ms <= 0) return;
        spans.push_back({name, at, ms});
        at += events::Ns(ms * 1e6);
    };
    if (out.cache == jit::CompileOutcome::Cache::Memory) {
        add("cache lookup (memory)", out.totalMs);
        return;
    }
    add("cache lookup", out.lookupMs);
    if (out.cache == jit::CompileOutcome::Cache::Disk) {
        add("load (disk cache)", out.cacheLoadMs);
        return;
    }
    add("jit plugin load", out.pluginLoadMs);
    if (out.lib && out.lib->backend == "cc") {
        add("jit (cc)", out.frontendMs);
    } else {
        add("jit frontend", out.frontendMs);
        add("jit optimisation", out.optimizeMs);
        add("jit machine code", out.codegenMs);
    }
    add("load", out.loadMs);
    add("cache write", out.cacheWriteMs);
}

// A kernel's text with its comments out, its own name (and the names made from it: `_rows`) as
// "@K" and its buffers (bufN, inN, and names made from them: `buf7_acc`) numbered in order of first
// use: two kernels with the same shape compute the same thing on their own arguments.
std::string kernelShape(const codegen::Kernel& k) {
    const std::string& s = k.source;
    std::string out;
    out.reserve(s.size());
    std::map<std::string, int> buffers;
    auto identChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t i = 0; i < s.size();) {
        if (s.compare(i, 2, "//") == 0) { // to the end of the line
            while (i < s.size() && s[i] != '\n') ++i;
            continue;
        }
        if (s.compare(i, 2, "/*") == 0) {
            size_t e = s.find("*/", i + 2);
            i = e == std::string::npos ? s.size() : e + 2;
            continue;
        }
        if (s[i] == '"' || s[i] == '\'') { // a literal, whole
            const char quote = s[i];
            size_t j = i + 1;
            while (j < s.size() && s[j] != quote) j += s[j] == '\\' ? 2 : 1;
            j = std::min(j + 1, s.size());
            out.append(s, i, j - i);
            i = j;
            continue;
        }
        if (!identChar(s[i])) {
            out += s[i++];
            continue;
        }
        size_t j = i;
        while (j < s.size() && identChar(s[j])) ++j;
        std::string id = s.substr(i, j - i);
        i = j;
        if (std::isdigit(static_cast<unsigned char>(id[0]))) { // a number
            out += id;
            continue;
        }
        if (id.compare(0, k.name.size(), k.name) == 0 && (id.size() == k.name.size() || id[k.name.size()] == '_')) {
            out += "@K" + id.substr(k.name.size());
            continue;
        }
        size_t prefix = id.compare(0, 3, "buf") == 0 ? 3 : id.compare(0, 2, "in") == 0 ? 2 : 0;
        size_t digits = prefix;
        while (prefix && digits < id.size() && std::isdigit(static_cast<unsigned char>(id[digits]))) ++digits;
        if (digits > prefix && (digits == id.size() || id[digits] == '_')) {
            auto it = buffers.emplace(id.substr(0, digits), int(buffers.size())).first;
            out += "@" + std::to_string(it->second) + id.substr(digits);
            continue;
        }
        out += id;
    }
    return out;
}

} // namespace

std::string jitUnit(const std::vector<codegen::Kernel>& kernels, std::vector<size_t>& compiledAs) {
    compiledAs.assign(kernels.size(), 0);
    std::map<std::string, size_t> firstOfShape;
    std::vector<codegen::Kernel> distinct;
    for (size_t k = 0; k < kernels.size(); ++k) {
        auto [it, isNew] = firstOfShape.emplace(kernelShape(kernels[k]), k);
        compiledAs[k] = it->second;
        if (isNew) distinct.push_back(kernels[k]);
    }
    return codegen::translationUnit(distinct);
}

// ------------------------------------------------------------------ passes
void lowerPass(const graph::Graph& g, Artifact& a) { a.lowered = lowerGraph(g); }

void dependencyPass(const graph::Graph& g, Artifact& a) {
    const Program& p = a.lowered.program;
    // dependencies and values read whole
    a.deps.assign(p.nodes.size(), {});
    a.needsValue.assign(p.nodes.size(), false);
    for (auto& n : p.nodes) {
        std::set<int> d;
        if (n.kind == NodeKind::Pointwise || n.kind == NodeKind::Reduction) loadsOf(n.body, d);
        if (n.itemOf >= 0) {
            d.insert(n.itemOf);
        } else if (n.kind == NodeKind::Extern || n.kind == NodeKind::Fallback) {
            const graph::Node& op = *g.nodes()[n.fromGraphNodes[0]];
            for (auto& x : op.args) graphDeps(a.lowered, x, d);
            for (auto& [k, x] : op.kwargs) graphDeps(a.lowered, x, d);
        }
        d.erase(n.id);
        a.deps[n.id].assign(d.begin(), d.end());
    }
    // an op that changes a tensor in place is a barrier: what comes before it runs before it,
    // what comes after runs after it
    for (auto& n : p.nodes) {
        if ((n.kind != NodeKind::Fallback && n.kind != NodeKind::Extern) || !graph::mutatesInPlace(n.callee, false)) continue;
        for (auto& m : p.nodes) {
            if (m.kind == NodeKind::Input || m.id == n.id) continue;
            auto& d = m.id < n.id ? a.deps[n.id] : a.deps[m.id];
            int other = m.id < n.id ? m.id : n.id;
            if (std::find(d.begin(), d.end(), other) == d.end()) d.push_back(other);
        }
    }
    for (size_t i = 0; i < a.lowered.info.size(); ++i) {
        const GraphNodeInfo& gi = a.lowered.info[i];
        if (!gi.needsValue || gi.viewOp) continue;
        if (gi.value.buffer >= 0 && (gi.value.kind == LoweredValue::Buffer)) a.needsValue[gi.value.buffer] = true;
        for (auto& it : gi.items) // a tuple computed by kernels, read whole
            if (it.kind == LoweredValue::Buffer && it.buffer >= 0) a.needsValue[it.buffer] = true;
    }
    // values read through views by externs, fallbacks and outputs: their base buffers
    for (size_t i = 0; i < a.lowered.info.size(); ++i) {
        const GraphNodeInfo& gi = a.lowered.info[i];
        if (!gi.needsValue || !gi.viewOp) continue;
        std::set<int> d;
        graphDeps(a.lowered, graph::Arg::ref(g.nodes()[i].get()), d);
        for (int b : d) a.needsValue[b] = true;
    }
    // indices checked before the result is used (embedding's rows) are stored whole
    for (auto& chk : p.indexChecks)
        if (p.nodes[size_t(chk.buffer)].kind != NodeKind::Input) a.needsValue[size_t(chk.buffer)] = true;
    // random draws (dropout noise, eager ops that draw or keep state) run in program order: the
    // generator's stream is eager's only so
    int lastDraw = -1;
    for (auto& n : p.nodes) {
        const bool draws = n.callee == kDropoutNoise || ((n.kind == NodeKind::Extern || isEagerOp(n)) && graph::impure(n.callee));
        if (!draws) continue;
        if (lastDraw >= 0 && std::find(a.deps[n.id].begin(), a.deps[n.id].end(), lastDraw) == a.deps[n.id].end()) a.deps[n.id].push_back(lastDraw);
        lastDraw = n.id;
        // backward reruns the graph eagerly: only when running it twice is harmless
        a.recomputable = false;
    }
}

void fusePass(Artifact& a) {
    const Program& p = a.lowered.program;
    fuse::Options fo;
    for (auto& sym : p.symbols) fo.symbolHints[sym] = 64; // a typical dynamic size, for byte estimates only
    a.schedule = fuse::schedule(p, a.deps, a.needsValue, fo);
    a.order = fuse::executionOrder(p, a.schedule, a.deps);
}

void planPass(Artifact& a) { a.plans = codegen::planKernels(a.lowered.program, a.schedule, a.order); }

void emitPass(const graph::Graph& g, Artifact& a) {
    const Program& p = a.lowered.program;
    a.kernels = codegen::emitKernels(p, a.schedule, a.plans);
    a.translationUnit = codegen::translationUnit(a.kernels);
    for (size_t k = 0; k < a.kernels.size(); ++k) a.kernelOfGroup[a.kernels[k].group] = k;
    size_t graphNodes = 0; // before the output node
    for (auto& n : g.nodes()) graphNodes += n->kind != graph::NodeKind::Output;
    a.producerOf.assign(graphNodes, -1);
    for (auto& n : p.nodes)
        if (n.graphNode >= 0) a.producerOf[n.graphNode] = n.id;
    a.key = jit::hashHex(canonicalGraph(g));
}

bool jitPass(Artifact& a, capture::CompiledCode& status, int64_t beginNs) {
    if (a.kernels.empty()) return true;
    jit::CompileRequest req;
    req.source = jitUnit(a.kernels, a.compiledAs);
    req.key = a.key;
    for (size_t k = 0; k < a.kernels.size(); ++k)
        if (a.compiledAs[k] == k) req.symbols.push_back(a.kernels[k].name);
    jit::CompileOutcome out = jit::Jit::instance().compile(req);
    jitSteps(out, beginNs, status.phaseSpans);
    if (!out.lib) {
        status.error = "the kernels did not compile: " + out.error;
        return false;
    }
    a.lib = out.lib;
    status.cache = out.cache == jit::CompileOutcome::Cache::Miss     ? "miss"
                   : out.cache == jit::CompileOutcome::Cache::Memory ? "memory"
                                                                     : "disk";
    status.jitBackend = out.lib->backend;
    const events::Ns tLookup = events::now();
    for (size_t k = 0; k < a.kernels.size(); ++k) a.fns.push_back(out.lib->lookup(a.kernels[a.compiledAs[k]].name));
    status.phaseSpans.push_back({"symbol lookup", tLookup, double(events::now() - tLookup) * 1e-6});
    return true;
}

// ------------------------------------------------------------------ the pipeline
namespace {

struct Pass {
    const char* name;
    const char* phase;  // the span it is timed under ("lower" holds lowering and its analysis)
    double Phases::*ms; // where its time adds up
    std::function<bool(const capture::CapturedGraph&, Artifact&, capture::CompiledCode&, int64_t)> run;
};

const std::vector<Pass>& passes() {
    static const std::vector<Pass> kPasses = {
        {"lower", "lower", &Phases::lower,
         [](auto& g, auto& a, auto&, int64_t) {
             lowerPass(g.printable, a);
             return true;
         }},
        {"dependencies", "lower", &Phases::lower,
         [](auto& g, auto& a, auto&, int64_t) {
             dependencyPass(g.printable, a);
             return true;
         }},
        {"fuse", "fuse", &Phases::fuse,
         [](auto&, auto& a, auto&, int64_t) {
             fusePass(a);
             return true;
         }},
        // plan and emit are both codegen's: timed, and shown in the reports, as one phase
        {"plan", "codegen", &Phases::codegen,
         [](auto&, auto& a, auto&, int64_t) {
             planPass(a);
             return true;
         }},
        {"emit", "codegen", &Phases::codegen,
         [](auto& g, auto& a, auto&, int64_t) {
             emitPass(g.printable, a);
             return true;
         }},
        {"jit", nullptr, &Phases::jit, [](auto&, auto& a, auto& st, int64_t begin) { return jitPass(a, st, begin); }},
    };
    return kPasses;
}

} // namespace

std::vector<std::string> passNames() {
    std::vector<std::string> out;
    for (auto& p : passes()) out.push_back(p.name);
    return out;
}

void run(const capture::CapturedGraph& g, double traceMs, Artifact& a, capture::CompiledCode& status) {
    a.phases.trace = traceMs;
    events::Ns mark = events::now(); // start of the open span
    const char* open = nullptr;      // the phase whose span is open
    auto close = [&](events::Ns t) {
        if (open) status.phaseSpans.push_back({open, mark, double(t - mark) * 1e-6});
        open = nullptr;
        mark = t;
    };
    try {
        for (const Pass& p : passes()) {
            const events::Ns t0 = events::now();
            if (open && (!p.phase || std::string(open) != p.phase)) close(t0);
            if (!open && p.phase) {
                open = p.phase;
                mark = t0;
            }
            bool ok = p.run(g, a, status, t0);
            const events::Ns t1 = events::now();
            a.phases.*p.ms += double(t1 - t0) * 1e-6;
            if (!ok) return;
        }
        close(events::now());
        status.ok = true;
    } catch (std::exception& ex) {
        status.error = std::string("internal compiler error: ") + ex.what();
    }
}

} // namespace fl::compile
