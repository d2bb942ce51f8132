// The compile pipeline's passes, each called alone on graphs captured from small scripts: what
// lowering makes, what the dependency pass orders, what the scheduler fuses, what is emitted, and
// that run() calls them in order and times them under the phases the reports name.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/capture/capture.h"
#include "core/codegen/codegen.h"
#include "core/compile/pipeline.h"
#include "core/run/runner.h"
#include "core/script/interp.h"

using namespace fl;

static int passed = 0, failed = 0;
static void check(bool ok, const std::string& what) {
    if (ok)
        ++passed;
    else {
        ++failed;
        std::printf("FAIL %s\n", what.c_str());
    }
}

// Runs `source` with capture on (FUSELAB_BACKEND=reference: the graphs are captured, not compiled)
// and calls `use` with the first entry's captured graph, before the run ends.
static void withFirstGraph(const std::string& source, const std::function<void(const capture::CapturedGraph&)>& use) {
    bool found = false;
    run::RunConfig cfg;
    cfg.path = "pipeline_case.py";
    cfg.source = source;
    cfg.haveSource = true;
    cfg.importFromEnvironment = false;
    cfg.out = [](const std::string&) {};
    cfg.err = [](const std::string& s) { std::printf("%s", s.c_str()); };
    cfg.afterRun = [&](script::Interp& in) {
        for (const capture::CFrame* fr : capture::session(in).framesInOrder())
            for (const auto& e : fr->entries)
                if (!found && !e->graph.nodes.empty()) {
                    found = true;
                    use(e->graph);
                }
    };
    run::RunResult r = run::runScript(cfg);
    check(r.status == run::RunStatus::Ok, "the case script runs");
    check(found, "the case script captures a graph");
}

static const char* kMlp = R"(
import torch
import torch.nn.functional as F
def f(x, w, b):
    return F.gelu(x @ w + b)
cf = torch.compile(f)
torch.manual_seed(0)
cf(torch.randn(8, 16), torch.randn(16, 32), torch.randn(32))
)";

static const char* kInplace = R"(
import torch
def f(x):
    y = x * 2
    y.add_(1)
    return y.sin()
cf = torch.compile(f)
cf(torch.randn(4, 4))
)";

static const char* kSoftmax = R"(
import torch
def f(x):
    return torch.softmax(x * 2.0, -1)
torch.compile(f)(torch.randn(64, 1024))
)";

// sigmoid then tanh of it: chained costly math over long rows (two stages, blocks fetched ahead)
static const char* kChain = R"(
import torch
def f(x):
    return torch.tanh(x * torch.sigmoid(x)) + x
torch.compile(f)(torch.randn(64, 65536))
)";

// an RMS norm whose 16 MiB output is written past a 16 MiB last-level cache
static const char* kRmsNorm = R"(
import torch
def f(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
torch.compile(f)(torch.randn(4096, 1024), torch.randn(1024))
)";

// the same op after two matmuls: two kernels that differ only in names
static const char* kTwins = R"(
import torch
def f(x, w):
    return torch.relu(torch.relu(x @ w) @ w)
torch.compile(f)(torch.randn(8, 8), torch.randn(8, 8))
)";

static const char* kRelu = R"(
import torch
def f(x):
    return torch.relu(x) + 1
torch.compile(f)(torch.randn(8, 8))
)";

// The kernels of a case script's first graph, through the passes one by one.
static std::vector<codegen::Kernel> kernelsOf(const char* source) {
    std::vector<codegen::Kernel> out;
    withFirstGraph(source, [&](const capture::CapturedGraph& g) {
        compile::Artifact a;
        compile::lowerPass(g.printable, a);
        compile::dependencyPass(g.printable, a);
        compile::fusePass(a);
        compile::planPass(a);
        compile::emitPass(g.printable, a);
        out = a.kernels;
    });
    return out;
}

// The choices of `kind` in a kernel's plan.
static std::vector<codegen::Choice> chosen(const std::vector<codegen::Kernel>& ks, codegen::ChoiceKind kind) {
    std::vector<codegen::Choice> r;
    for (auto& k : ks)
        for (auto& c : k.plan)
            if (c.kind == kind) r.push_back(c);
    return r;
}

// The plan: each codegen choice as data with its reason, for kernels whose shape calls for it.
static void planChecks() {
    using codegen::ChoiceKind;
    setenv("FUSELAB_LLC_BYTES", "16777216", 1); // read once per process: before any kernel is written
    auto sm = kernelsOf(kSoftmax);
    auto kept = chosen(sm, ChoiceKind::KeptValue);
    check(sm.size() == 1 && kept.size() == 1 && kept[0].subject.find("fl_exp_nonpos") != std::string::npos && !kept[0].reason.empty(),
          "plan: softmax keeps its exp for the row");
    check(chosen(sm, ChoiceKind::RowValue).size() == 1, "plan: softmax's 1 / sum is a row value");
    check(chosen(sm, ChoiceKind::Streamed).empty(), "plan: softmax's store loop reads only kept values: not streamed");
    check(!chosen(sm, ChoiceKind::Interleave).empty() && !chosen(sm, ChoiceKind::PrefetchAhead).empty(),
          "plan: its exp loop is interleaved and fetches the next row ahead");

    auto ch = kernelsOf(kChain);
    auto two = chosen(ch, ChoiceKind::TwoStage);
    check(ch.size() == 1 && two.size() == 1 && two[0].reason.find("chained costly math") != std::string::npos, "plan: sigmoid then tanh run in two stages");
    check(chosen(ch, ChoiceKind::PrefetchAhead).size() == 1, "plan: the blocked chain fetches the next row block ahead");

    auto rms = kernelsOf(kRmsNorm);
    auto streamed = chosen(rms, ChoiceKind::Streamed);
    check(streamed.size() == 1 && chosen(rms, ChoiceKind::Interleave).empty(), "plan: rmsnorm's output rows are streamed, no loop interleaved");
    check(chosen(rms, ChoiceKind::RowValue).size() == 1, "plan: rmsnorm's rsqrt is a row value");

    auto relu = kernelsOf(kRelu);
    check(relu.size() == 1 && relu[0].plan.size() == 1 && relu[0].plan[0].kind == ChoiceKind::OpaqueConstant && relu[0].plan[0].subject == "0.0f",
          "plan: relu's compared zero is its only choice");
}

// jitUnit: kernels that differ only in names, buffer names and comments are compiled once.
static void twinChecks() {
    auto kernel = [](const std::string& name, const std::string& body) {
        codegen::Kernel k;
        k.name = name;
        k.source = "// " + name + ": what it computes\nstatic void " + name + "_rows(" + body + "}\nextern \"C\" void " + name + "() {}\n";
        return k;
    };
    std::vector<codegen::Kernel> ks = {
        kernel("cpp_fused_relu_0", "float* buf3, const float* in1) { float buf3_acc = in1[0]; // from line 4\n buf3[0] = buf3_acc * 2.0f;"),
        kernel("cpp_fused_relu_1", "float* buf9, const float* in7) { float buf9_acc = in7[0]; // from line 9\n buf9[0] = buf9_acc * 2.0f;"),
        kernel("cpp_fused_relu_2", "float* buf9, const float* in7) { float buf9_acc = in7[0];\n buf9[0] = buf9_acc * 3.0f;"),
        // the same text, but one buffer read where the first reads two: not the same kernel
        kernel("cpp_fused_relu_3", "float* buf3, const float* in1) { float buf3_acc = in1[0];\n buf3[0] = in1[1] * 2.0f;"),
        kernel("cpp_fused_relu_4", "float* buf3, const float* in1) { float buf3_acc = in1[0];\n buf3[0] = buf3[1] * 2.0f;"),
    };
    std::vector<size_t> as;
    std::string unit = compile::jitUnit(ks, as);
    check(as == std::vector<size_t>{0, 0, 2, 3, 4}, "jitUnit: the second kernel runs the first's code, the others their own");
    check(unit.find("cpp_fused_relu_0(") != std::string::npos && unit.find("cpp_fused_relu_1") == std::string::npos &&
              unit.find("cpp_fused_relu_2(") != std::string::npos,
          "jitUnit: the unit holds each distinct kernel once");
    std::vector<codegen::Kernel> distinct = {ks[0], ks[2]};
    check(compile::jitUnit(distinct, as) == codegen::translationUnit(distinct) && as == std::vector<size_t>{0, 1},
          "jitUnit: without twins, the translation unit itself (the same cache key as before)");

    withFirstGraph(kTwins, [&](const capture::CapturedGraph& g) {
        struct Status : capture::CompiledCode {
            bool execute(script::Interp&, const capture::CapturedGraph&, std::vector<script::Value>&) override { return false; }
            bool rerunnable() const override { return false; }
            size_t kernelCount() const override { return 0; }
        } st;
        compile::Artifact c;
        compile::run(g, 0, c, st);
        check(st.ok && c.kernels.size() == 2 && c.kernels[0].name != c.kernels[1].name, "twins: two kernels, named apart (" + st.error + ")");
        check(c.compiledAs == std::vector<size_t>{0, 0} && c.fns.size() == 2 && c.fns[0] && c.fns[0] == c.fns[1],
              "twins: compiled once, both run the same code");
    });
}

int main() {
    setenv("FUSELAB_BACKEND", "reference", 1);
    planChecks();
    twinChecks();
    check(compile::passNames() == std::vector<std::string>{"lower", "dependencies", "fuse", "plan", "emit", "jit"}, "the passes, in order");

    std::string mlpKey;
    withFirstGraph(kMlp, [&](const capture::CapturedGraph& g) {
        // ---- lower
        compile::Artifact a;
        compile::lowerPass(g.printable, a);
        const lower::Program& p = a.lowered.program;
        int inputs = 0, externs = 0, pointwise = 0;
        for (auto& n : p.nodes) {
            inputs += n.kind == lower::NodeKind::Input;
            externs += n.kind == lower::NodeKind::Extern;
            pointwise += n.kind == lower::NodeKind::Pointwise;
        }
        check(inputs == 3, "lower: the three inputs are Input nodes (" + std::to_string(inputs) + ")");
        check(externs == 1 && p.nodes.size() > 3, "lower: the matmul is one library call");
        check(pointwise >= 2, "lower: the bias add and gelu are pointwise nodes");
        check(a.lowered.info.size() == g.nodes.size(), "lower: one info per captured node");
        check(a.deps.empty() && a.kernels.empty(), "lower: only lowering ran");

        // ---- dependencies
        compile::dependencyPass(g.printable, a);
        check(a.deps.size() == p.nodes.size() && a.needsValue.size() == p.nodes.size(), "dependencies: one entry per program node");
        const lower::Node* mm = nullptr;
        for (auto& n : p.nodes)
            if (n.kind == lower::NodeKind::Extern) mm = &n;
        bool afterMm = false;
        for (auto& n : p.nodes)
            if (n.kind == lower::NodeKind::Pointwise && std::count(a.deps[n.id].begin(), a.deps[n.id].end(), mm ? mm->id : -2))
                afterMm = true;
        check(afterMm, "dependencies: a pointwise node reads the matmul's result");
        check(a.recomputable, "dependencies: a pure graph may be rerun");

        // ---- fuse
        compile::fusePass(a);
        int live = 0;
        for (auto& gr : a.schedule.groups) live += gr.alive;
        check(live == 1, "fuse: bias and gelu become one kernel (" + std::to_string(live) + " live groups)");
        bool vertical = false, epilogue = false;
        for (auto& d : a.schedule.decisions) {
            vertical = vertical || (d.kind == "vertical" && d.fused && !d.reason.empty());
            epilogue = epilogue || (d.kind == "epilogue" && d.fused);
        }
        check(vertical, "fuse: a vertical fusion decision with its reason");
        // the bias `b` is an input numbered after the matmul: inputs exist before anything runs
        check(epilogue, "fuse: the kernel runs as the matmul's epilogue");
        check(!a.order.empty(), "fuse: an execution order");

        // ---- plan
        compile::planPass(a);
        check(a.plans.size() == 1 && a.plans[0].group >= 0 && a.schedule.groups[a.plans[0].group].alive, "plan: one plan, for the live group");
        check(a.kernels.empty(), "plan: nothing printed yet");

        // ---- emit
        compile::emitPass(g.printable, a);
        check(a.kernels.size() == 1, "emit: one kernel");
        check(!a.kernels.empty() && a.kernels[0].name.rfind("cpp_fused_", 0) == 0 && a.kernels[0].name.find("gelu") != std::string::npos,
              "emit: the kernel is named for what it computes (" + (a.kernels.empty() ? std::string() : a.kernels[0].name) + ")");
        check(a.translationUnit.find(a.kernels.empty() ? "?" : a.kernels[0].name) != std::string::npos,
              "emit: the translation unit holds the kernel");
        check(a.key.size() >= 16, "emit: a cache key");
        compile::Artifact again;
        compile::lowerPass(g.printable, again);
        compile::dependencyPass(g.printable, again);
        compile::fusePass(again);
        compile::planPass(again);
        compile::emitPass(g.printable, again);
        check(again.key == a.key && again.translationUnit == a.translationUnit, "emit: the same graph gives the same source and key");
        check(a.lib == nullptr && a.fns.empty(), "emit: nothing compiled yet");
        mlpKey = a.key;
    });

    // ---- dependencies: an in-place op is a barrier, and makes the graph unsafe to rerun
    withFirstGraph(kInplace, [&](const capture::CapturedGraph& gi) {
        compile::Artifact b;
        compile::lowerPass(gi.printable, b);
        compile::dependencyPass(gi.printable, b);
        const lower::Program& pi = b.lowered.program;
        const lower::Node* add_ = nullptr;
        for (auto& n : pi.nodes)
            if (n.kind == lower::NodeKind::Fallback && n.callee.size() > 1 && n.callee.back() == '_') add_ = &n;
        check(add_ != nullptr, "lower: the in-place add_ is an eager op (no lowering for it)");
        if (add_) {
            bool barrier = true;
            for (auto& n : pi.nodes) {
                if (n.kind == lower::NodeKind::Input || n.id == add_->id) continue;
                const auto& d = n.id < add_->id ? b.deps[add_->id] : b.deps[n.id];
                int other = n.id < add_->id ? n.id : add_->id;
                barrier = barrier && std::count(d.begin(), d.end(), other);
            }
            check(barrier, "dependencies: every node is ordered against the in-place op");
            check(!b.recomputable, "dependencies: a graph with an in-place op is not rerun");
        }
    });

    // ---- run: all passes, timed under the phases the reports name
    withFirstGraph(kMlp, [&](const capture::CapturedGraph& g2) {
        struct Status : capture::CompiledCode {
            bool execute(script::Interp&, const capture::CapturedGraph&, std::vector<script::Value>&) override { return false; }
            bool rerunnable() const override { return false; }
            size_t kernelCount() const override { return 0; }
        } st;
        compile::Artifact c;
        compile::run(g2, 1.5, c, st);
        check(st.ok && st.error.empty(), "run: compiles (" + st.error + ")");
        check(c.lib != nullptr && c.fns.size() == c.kernels.size() && !c.fns.empty() && c.fns[0] != nullptr, "run: the kernels are loaded");
        std::vector<std::string> names;
        for (auto& s : st.phaseSpans) names.push_back(s.name);
        check(names.size() >= 4 && names[0] == "lower" && names[1] == "fuse" && names[2] == "codegen",
              "run: spans lower, fuse, codegen, then the JIT's steps");
        check(!names.empty() && names.back() == "symbol lookup", "run: the last span is the symbol lookup");
        bool ordered = true;
        for (size_t i = 1; i < st.phaseSpans.size(); ++i) ordered = ordered && st.phaseSpans[i].beginNs >= st.phaseSpans[i - 1].beginNs;
        check(ordered, "run: spans in time order");
        check(c.phases.trace == 1.5 && c.phases.lower > 0 && c.phases.fuse > 0 && c.phases.codegen > 0, "run: each phase timed");
        check(c.key == mlpKey, "run: the same key as the passes called one by one");
    });

    std::printf("pipeline: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
