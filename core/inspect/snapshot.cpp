#include "core/inspect/snapshot.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <numeric>
#include <regex>
#include <set>
#include <sstream>

#include "core/capture/capture.h"
#include "core/jit/jit.h"
#include "core/runtime/runtime.h"
#include "core/script/interp.h"
#include "core/inspect/report.h"

namespace fl::inspect {

using runtime::Compiled;
using runtime::compiledOf;

namespace {

std::string baseName(const std::string& p) {
    size_t s = p.find_last_of('/');
    return s == std::string::npos ? p : p.substr(s + 1);
}

std::string shapeText(const std::vector<graph::TensorMeta>& meta) {
    if (meta.empty()) return "";
    std::string s;
    for (size_t i = 0; i < meta.size(); ++i) s += (i ? ", " : "") + graph::formatMeta(meta[i]);
    return s;
}

void collectRefs(const graph::Arg& a, const std::map<const graph::Node*, int>& index, std::vector<int>& out) {
    if (a.kind == graph::Arg::Kind::NodeRef) {
        auto it = index.find(a.node);
        if (it != index.end() && std::find(out.begin(), out.end(), it->second) == out.end()) out.push_back(it->second);
    }
    for (auto& x : a.items) collectRefs(x, index, out);
}

// The node's line in the script: its own span when the op is written there, else the innermost
// frame of its user stack that is in the script (a prelude module called from a script line).
int nodeLine(const graph::Node& n, const std::string& file, int& col, int& endCol) {
    if (!n.span.file.empty() && baseName(n.span.file) == baseName(file) && n.span.line > 0) {
        col = n.span.col, endCol = n.span.endCol;
        return n.span.line;
    }
    col = endCol = 0;
    for (auto it = n.userStack.rbegin(); it != n.userStack.rend(); ++it)
        if (int l = scriptLineIn(*it, file)) return l;
    return 0;
}

// Union-find over program nodes, for replaying fusion decisions.
struct Groups {
    std::vector<int> parent;
    explicit Groups(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
    int find(int x) { while (parent[x] != x) x = parent[x] = parent[parent[x]]; return x; }
    void join(int a, int b) { a = find(a), b = find(b); if (a != b) parent[std::max(a, b)] = std::min(a, b); }
};

// The nodes of a graph as the window draws them.
void fillNodes(SnapEntry& se, const graph::Graph& g, const std::string& file) {
    std::map<const graph::Node*, int> index;
    const auto& pnodes = g.nodes();
    for (size_t i = 0; i < pnodes.size(); ++i) index[pnodes[i].get()] = int(i);
    for (size_t i = 0; i < pnodes.size(); ++i) {
        const graph::Node& n = *pnodes[i];
        SnapNode sn;
        sn.id = int(i);
        sn.name = n.name;
        sn.shape = shapeText(n.meta);
        if (!n.meta.empty()) {
            sn.dtype = n.meta[0].dtype;
            if (!n.meta[0].strides.empty()) {
                sn.strides = "[";
                for (size_t d = 0; d < n.meta[0].strides.size(); ++d) sn.strides += (d ? ", " : "") + std::to_string(n.meta[0].strides[d]);
                sn.strides += "]";
            }
        }
        sn.module = n.modulePath;
        sn.line = nodeLine(n, file, sn.col, sn.endCol);
        for (auto& a : n.args) collectRefs(a, index, sn.inputs);
        for (auto& [k, a] : n.kwargs) collectRefs(a, index, sn.inputs);
        if (n.kind == graph::NodeKind::Placeholder) {
            sn.op = "placeholder";
            bool param = n.name.find("_parameters_") != std::string::npos || n.name.find("_buffers_") != std::string::npos;
            sn.kind = param ? SnapNode::Kind::Parameter : SnapNode::Kind::Input;
        } else if (n.kind == graph::NodeKind::Output) {
            sn.op = "output", sn.kind = SnapNode::Kind::Output;
        } else {
            sn.op = n.target;
        }
        se.nodes.push_back(std::move(sn));
    }
}

// `graphNodes`: the captured graph's nodes the code was made from (its output node included).
void fillCompiled(SnapEntry& se, size_t graphNodes, const Compiled& c, const std::string& file, const SnapshotOptions& o) {
    const lower::Program& p = c.lowered.program;
    for (auto& n : p.nodes) {
        if (n.graphNode < 0 || size_t(n.graphNode) >= se.nodes.size()) continue;
        if (n.kind == lower::NodeKind::Extern) se.nodes[n.graphNode].kind = SnapNode::Kind::Extern;
        if (n.kind == lower::NodeKind::Fallback) se.nodes[n.graphNode].kind = SnapNode::Kind::Fallback;
    }
    auto graphNodesOf = [&](const std::vector<int>& prog) {
        std::vector<int> out;
        for (int pn : prog)
            for (int g : p.nodes[pn].fromGraphNodes)
                if (g >= 0 && size_t(g) < graphNodes && std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
        std::sort(out.begin(), out.end());
        return out;
    };
    // Kernels and library / eager calls in run order.
    std::map<int, int> kernelOfProgramNode;
    for (int unit : c.order) {
        SnapKernel k;
        std::vector<int> prog;
        if (unit >= 0) {
            auto it = c.kernelOfGroup.find(unit);
            if (it == c.kernelOfGroup.end()) continue;
            const codegen::Kernel& ck = c.kernels[it->second];
            k.name = ck.name, k.kind = "kernel", k.source = ck.source;
            prog = ck.nodes;
        } else {
            const lower::Node& n = p.nodes[-1 - unit];
            prog = {n.id};
            if (n.kind == lower::NodeKind::Extern) {
                k.name = n.what, k.kind = "library";
                std::string args;
                for (int g : n.inputs)
                    if (g >= 0 && size_t(g) < se.nodes.size()) args += (args.empty() ? "" : ", ") + se.nodes[size_t(g)].name;
                const char* what = n.callee == lower::kDropoutNoise
                                       ? "// library call: LibTorch's generator draws the dropout's noise as eager's dropout draws it\n"
                                         "// (the same masks for the same seed, in program order); the kernels multiply by it\n"
                                   : lower::isLibraryCall(n.callee)
                                       ? "// library call: LibTorch runs the op as recorded (a library call by design, as mm is);\n"
                                         "// the kernels before and after it are compiled\n"
                                       : "// library call: LibTorch (OpenBLAS underneath) computes it; a kernel that follows may run\n"
                                         "// on each block of its rows as they are produced (an epilogue)\n";
                k.source = std::string(what) +
                           n.name + " = " + n.callee + "(" + args + ")  # " + n.opText + (n.line ? " at line " + std::to_string(n.line) : "") + "\n";
            } else {
                k.name = "eager " + n.opText, k.kind = "eager";
                k.source = "// runs eagerly: " + n.opText + "\n// " + (n.note.empty() ? "no lowering for this op" : n.note) + "\n";
            }
        }
        int index = int(se.kernels.size());
        for (int pn : prog) kernelOfProgramNode.emplace(pn, index);
        k.nodes = graphNodesOf(prog);
        // Each source line names buffers (bufN, inN): link it to the graph nodes those lower.
        static const std::regex bufRe(R"(\b(?:buf|in)(\d+)\b)");
        std::istringstream lines(k.source);
        std::string line;
        while (std::getline(lines, line)) {
            std::vector<int> refs;
            for (std::sregex_iterator m(line.begin(), line.end(), bufRe), end; m != end; ++m) {
                int pn = std::stoi((*m)[1]);
                if (pn < 0 || size_t(pn) >= p.nodes.size()) continue;
                bool own = std::find(prog.begin(), prog.end(), pn) != prog.end();
                // the kernel's own nodes by name; inputs only on the lines that load them
                if (!own && line.find("//") == std::string::npos && line.find('=') == std::string::npos) continue;
                for (int g : graphNodesOf({pn}))
                    if (std::find(refs.begin(), refs.end(), g) == refs.end()) refs.push_back(g);
            }
            k.lineNodes.push_back(std::move(refs));
        }
        se.kernels.push_back(std::move(k));
    }
    // Each graph node's kernel: the one holding its value, else the first that covers it.
    for (size_t g = 0; g < graphNodes; ++g) {
        int pn = g < c.producerOf.size() ? c.producerOf[g] : -1;
        auto it = pn >= 0 ? kernelOfProgramNode.find(pn) : kernelOfProgramNode.end();
        if (it != kernelOfProgramNode.end()) { se.nodes[g].kernel = it->second; continue; }
        for (size_t k = 0; k < se.kernels.size() && se.nodes[g].kernel < 0; ++k)
            if (std::binary_search(se.kernels[k].nodes.begin(), se.kernels[k].nodes.end(), int(g))) se.nodes[g].kernel = int(k);
    }
    for (auto& k : se.kernels) {
        std::set<int> ls;
        for (int g : k.nodes)
            if (se.nodes[g].line > 0) ls.insert(se.nodes[g].line);
        k.lines.assign(ls.begin(), ls.end());
    }
    // Fusion decisions, and the grouping after each: groups start as the scheduler's initial
    // ones (library calls alone), and each fused decision joins its two sides.
    for (auto& d : c.schedule.decisions) {
        SnapDecision sd;
        sd.step = d.step, sd.kind = d.kind, sd.score = d.score, sd.bytesSaved = d.bytesSaved, sd.fused = d.fused, sd.reason = d.reason;
        sd.a = describeNodes(p, d.a), sd.b = describeNodes(p, d.b);
        sd.aNodes = graphNodesOf(d.a), sd.bNodes = graphNodesOf(d.b);
        se.decisions.push_back(std::move(sd));
    }
    Groups groups(p.nodes.size());
    for (auto& init : c.schedule.initial)
        for (size_t i = 1; i < init.size(); ++i) groups.join(init[0], init[i]);
    std::vector<bool> grouped(p.nodes.size(), false);
    for (auto& init : c.schedule.initial)
        for (int pn : init) grouped[pn] = true;
    for (auto& n : p.nodes)
        if (n.kind == lower::NodeKind::Extern || n.kind == lower::NodeKind::Fallback) grouped[n.id] = true;
    auto snapshotGroups = [&] {
        std::vector<int> out(se.nodes.size(), -1);
        for (size_t g = 0; g < graphNodes; ++g) {
            int pn = g < c.producerOf.size() ? c.producerOf[g] : -1;
            if (pn >= 0 && grouped[pn]) out[g] = groups.find(pn);
        }
        return out;
    };
    se.groupsAt.push_back(snapshotGroups());
    for (auto& d : c.schedule.decisions) {
        if (d.fused && !d.a.empty() && !d.b.empty()) groups.join(d.a[0], d.b[0]);
        se.groupsAt.push_back(snapshotGroups());
    }
    se.backend = c.jitBackend;
    se.cache = c.cache;
    se.traceMs = c.phases.trace, se.lowerMs = c.phases.lower, se.fuseMs = c.phases.fuse;
    se.codegenMs = c.phases.codegen, se.jitMs = c.phases.jit;
    se.calls = c.calls;
    if (o.irAndAssembly && c.lib) {
        se.ir = c.lib->llvmIR;
        se.assembly = jit::Jit::instance().assembly(*c.lib);
    }
}

// Compiled training: its three graphs (the forward and backward with their code once compiled),
// where each backward node comes from, and the partitioner's decisions.
std::shared_ptr<const SnapTraining> snapTraining(const SnapEntry& se, const runtime::TrainingCode& tc, const std::string& file,
                                                 const SnapshotOptions& o) {
    auto tr = std::make_shared<SnapTraining>();
    const autograd::Training& t = tc.graphs;
    tr->compiled = tc.error.empty();
    tr->why = tc.error;
    tr->calls = tc.calls, tr->backwardCalls = tc.backwardCalls;
    auto graph = [&](SnapEntry& g, const char* what, const graph::Graph& printable, const runtime::Compiled* code, size_t nodes) {
        g.id = se.id + " " + what, g.function = se.function, g.qualname = se.qualname, g.file = se.file, g.line = se.line;
        fillNodes(g, printable, file);
        g.graphCode = graph::printGraph(printable);
        g.status = code && code->ok ? "compiled" : code ? "error" : "not compiled";
        if (code && !code->ok) g.note = code->error;
        if (code && code->ok) fillCompiled(g, nodes, *code, file, o);
        else g.groupsAt.push_back(std::vector<int>(g.nodes.size(), -1));
        g.ops = 0;
        for (const SnapNode& n : g.nodes) g.ops += n.kind != SnapNode::Kind::Input && n.kind != SnapNode::Kind::Parameter && n.kind != SnapNode::Kind::Output;
    };
    if (!t.ok) return tr; // no graphs past the captured one: say why only
    graph(tr->forward, "training forward", tc.forwardGraph.printable, tc.forward.get(), tc.forwardGraph.nodes.size());
    graph(tr->backward, "backward", tc.backwardGraph.printable, tc.backward.get(), tc.backwardGraph.nodes.size());
    graph(tr->joint, "joint", t.joint, nullptr, 0);
    tr->jointForwardNodes = int(se.nodes.size()) - 1;
    const size_t nb = tr->backward.nodes.size();
    tr->savedFrom.assign(nb, -1), tr->recomputedFrom.assign(nb, -1), tr->tangentOf.assign(nb, -1);
    for (size_t i = 0; i < t.origin.size() && i < nb; ++i) {
        const autograd::BackwardNode& b = t.origin[i];
        if (b.kind == autograd::BackwardNode::Saved && size_t(b.index) < t.saved.size()) tr->savedFrom[i] = t.saved[size_t(b.index)].node;
        if (b.kind == autograd::BackwardNode::Recomputed) tr->recomputedFrom[i] = b.index;
        if (b.kind == autograd::BackwardNode::Tangent && size_t(b.index) < t.tangents.size()) tr->tangentOf[i] = t.tangents[size_t(b.index)];
    }
    // A saved placeholder shows where it is read from: the forward node's script line.
    for (size_t i = 0; i < nb; ++i) {
        int from = tr->savedFrom[i];
        if (from >= 0 && size_t(from) < se.nodes.size() && tr->backward.nodes[i].line == 0) tr->backward.nodes[i].line = se.nodes[size_t(from)].line;
    }
    for (const autograd::Decision& d : t.decisions) {
        SnapPartition p;
        p.name = d.name, p.saved = d.saved, p.bytes = d.bytes, p.reason = d.reason, p.node = d.value.node;
        for (size_t i = 0; i < nb && p.backwardNode < 0; ++i)
            if ((d.saved ? tr->savedFrom[i] : tr->recomputedFrom[i]) == d.value.node) p.backwardNode = int(i);
        tr->decisions.push_back(std::move(p));
    }
    return tr;
}

} // namespace

int scriptLineIn(const std::string& text, const std::string& file) {
    std::string base = baseName(file);
    if (base.empty()) return 0;
    // File "m.py", line 12
    static const std::regex stackRe(R"re(File "([^"]*)", line (\d+))re");
    std::smatch m;
    if (std::regex_search(text, m, stackRe)) return baseName(m[1]) == base ? std::stoi(m[2]) : 0;
    // ... # m.py:12 in f
    static const std::regex commentRe(R"(([^\s#]+):(\d+)(?: in |\s*$))");
    for (std::sregex_iterator it(text.begin(), text.end(), commentRe), end; it != end; ++it)
        if (baseName((*it)[1]) == base) return std::stoi((*it)[2]);
    return 0;
}

namespace {

// One entry of a frame; `pending`: its graph is being compiled, or the snapshot is capturedOnly.
SnapEntry snapEntry(const capture::CFrame& fr, const capture::Entry& e, const std::string& file, const SnapshotOptions& o, bool pending) {
    SnapEntry se;
    se.id = e.id, se.function = fr.function, se.qualname = fr.qualname, se.file = fr.file, se.line = fr.line;
    se.status = fr.skip ? "eager" : capture::statusName(e.status);
    se.limitHit = fr.limitHit;
    se.ops = e.graph.ops;
    for (auto& g : e.guards) se.guards.push_back({g.describe(), g.userLine, scriptLineIn(g.userLine, file)});
    if (e.status == capture::EntryStatus::Compiled) se.graphCode = graph::printGraph(e.graph.printable);
    fillNodes(se, e.graph.printable, file);
    const Compiled* compiled = compiledOf(e);
    if (pending && e.status == capture::EntryStatus::Compiled && !fr.skip && e.graph.ops > 0) {
        se.pending = true;
        se.groupsAt.push_back(std::vector<int>(se.nodes.size(), -1));
    } else if (compiled && compiled->ok) {
        fillCompiled(se, e.graph.nodes.size(), *compiled, file, o);
        if (compiled->training) se.training = snapTraining(se, *compiled->training, file, o);
    } else {
        se.backend = "reference";
        if (e.compiled) se.note = e.compiled->error;
        se.groupsAt.push_back(std::vector<int>(se.nodes.size(), -1));
    }
    return se;
}

// The snapshot, with `compiling` (of frame `compilingFrame`) as the last entry of its frame.
Snapshot snapshotOf(const capture::Session& s, const std::string& file, const SnapshotOptions& o, const capture::Entry* compiling,
                    const capture::CFrame* compilingFrame) {
    Snapshot snap;
    snap.file = file;
    snap.graphCount = s.graphCount();
    snap.partial = o.capturedOnly;
    for (const capture::CFrame* fr : s.framesInOrder()) {
        for (const auto& ep : fr->entries) snap.entries.push_back(snapEntry(*fr, *ep, file, o, o.capturedOnly));
        if (compiling && fr == compilingFrame) {
            snap.compilingEntry = int(snap.entries.size());
            snap.entries.push_back(snapEntry(*fr, *compiling, file, o, true));
        }
    }
    snap.breaks = s.report().breaks;
    for (const events::BreakFacts& b : snap.breaks) snap.breakChains.push_back(capture::breakChain(s, b));
    auto scriptLine = [&](const std::string& f, int line) { return line > 0 ? scriptLineIn("File \"" + f + "\", line " + std::to_string(line), file) : 0; };
    std::map<std::string, std::vector<std::string>> changed; // by function + file + line of the frame
    for (const capture::CFrame* fr : s.framesInOrder())
        for (const capture::ChangedArgument& a : capture::changedArguments(*fr)) {
            std::string where = scriptLine(a.file, a.line) ? " at line " + std::to_string(a.line) : "";
            changed[fr->function + "\n" + fr->file + "\n" + std::to_string(fr->line)].push_back(a.describe() + where);
        }
    for (const capture::RecompileEvent& r : s.report().recompiles) {
        SnapRecompile sr;
        sr.id = r.id, sr.function = r.function, sr.file = r.file, sr.line = r.line;
        sr.reasons = r.reasons, sr.userLines = r.comments;
        sr.callLine = scriptLine(r.callFile, r.callLine);
        sr.changed = changed[r.function + "\n" + r.file + "\n" + std::to_string(r.line)];
        // The guard's line; a guard made by no line of the script (grad mode) shows on the
        // recompiled function's first line.
        int fnLine = scriptLineIn("File \"" + r.file + "\", line " + std::to_string(r.line), file);
        for (size_t i = 0; i < r.reasons.size(); ++i) {
            int l = i < r.comments.size() ? scriptLineIn(r.comments[i], file) : 0;
            sr.guardLines.push_back(l ? l : fnLine);
        }
        snap.recompiles.push_back(std::move(sr));
    }
    for (const capture::Problem& p : capture::problems(s))
        snap.problems.push_back({p.kind, p.ids, p.text, scriptLine(p.file, p.line), scriptLine(p.callFile, p.callLine)});
    for (const capture::LimitEvent& l : s.report().limits) {
        SnapRecompile sr;
        sr.id = l.id, sr.function = l.function, sr.file = l.file, sr.line = l.line, sr.limitHit = true;
        sr.reasons = {l.lastReason};
        sr.userLines = {""};
        sr.guardLines = {scriptLineIn("File \"" + l.file + "\", line " + std::to_string(l.line), file)};
        snap.recompiles.push_back(std::move(sr));
    }
    return snap;
}

// The backend a watched run compiles with: a partial snapshot first, then the real backend.
class Watch final : public CompileWatch, public capture::Backend {
public:
    Watch(script::Interp& in, capture::Backend* inner, std::string file, std::function<void(Snapshot)> captured)
        : in_(in), inner_(inner), file_(std::move(file)), captured_(std::move(captured)) {}
    void stop() override { stopped_ = true; }
    std::shared_ptr<capture::CompiledCode> compile(const capture::Entry& e, double traceMs) override {
        if (!stopped_) tell(e);
        return inner_->compile(e, traceMs);
    }

private:
    void tell(const capture::Entry& e) {
        const auto t0 = std::chrono::steady_clock::now();
        if (t0 < quietUntil_) return;
        const capture::Session& s = capture::session(in_);
        const capture::CFrame* frame = nullptr;
        const size_t index = size_t(std::atoi(e.id.c_str())); // "frame/entry"
        if (index < s.framesInOrder().size()) frame = s.framesInOrder()[index];
        if (!frame) return;
        SnapshotOptions o;
        o.capturedOnly = true;
        Snapshot snap = snapshotOf(s, file_, o, &e, frame);
        snap.imports = in_.importedFiles();
        // the snapshots cost at most a fifth of the run: wait four times as long as this one took
        const auto t1 = std::chrono::steady_clock::now();
        quietUntil_ = t1 + 4 * (t1 - t0);
        captured_(std::move(snap));
    }

    script::Interp& in_;
    capture::Backend* inner_;
    std::string file_;
    std::function<void(Snapshot)> captured_;
    std::atomic<bool> stopped_{false};
    std::chrono::steady_clock::time_point quietUntil_{};
};

} // namespace

Snapshot takeSnapshot(const capture::Session& s, const std::string& file, const SnapshotOptions& o) {
    return snapshotOf(s, file, o, nullptr, nullptr);
}

Snapshot takeSnapshot(script::Interp& in, const std::string& file, const SnapshotOptions& o) {
    Snapshot s = takeSnapshot(capture::session(in), file, o);
    s.imports = in.importedFiles();
    return s;
}

std::shared_ptr<CompileWatch> watchCompiles(script::Interp& in, const std::string& file, std::function<void(Snapshot)> captured) {
    capture::Session& s = capture::session(in);
    if (!s.backend) return nullptr;
    auto w = std::make_shared<Watch>(in, s.backend, file, std::move(captured));
    s.backend = w.get();
    return w;
}

} // namespace fl::inspect
