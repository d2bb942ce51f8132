// Codegen's emitter alone: it prints what a plan says and decides nothing. Plans come from
// codegen::plan() on graphs built by hand, then are changed by hand: the source follows the
// plan, even where the planner would not have chosen so. Links fuselab_codegen and what it
// depends on only.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/check.h"
#include "../support/hand_graphs.h"
#include "core/codegen/codegen.h"

using namespace fl;
using codegen::KernelPlan;

static size_t count(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size())) ++n;
    return n;
}
static bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

// The loops of a kernel's source: its _rows function, without the math helpers before it.
static std::string loops(const codegen::Kernel& k) { return k.source.substr(k.source.find("static void " + k.name + "_rows(")); }

static KernelPlan planOf(const hand::Scheduled& s, const codegen::Target& t = {}) {
    auto ps = codegen::planKernels(s.program(), s.schedule, s.order, t);
    if (ps.size() != 1) throw std::runtime_error("expected one kernel");
    return ps[0];
}
static codegen::Kernel emit(const hand::Scheduled& s, const KernelPlan& p) { return codegen::emit(s.program(), s.schedule, p, "k"); }

static const char* kPragma = "#pragma clang loop interleave_count(4)";

static void softmaxSource() {
    auto s = hand::softmax(64, 1024);
    KernelPlan p = planOf(s);
    codegen::Kernel k = emit(s, p);
    const std::string src = loops(k);
    check(k.name == "k" && k.group == p.group && k.costPerRow == 1024, "softmax: the kernel of the plan's group");
    check(has(src, "float kept0[1024]; // a value loop 2 computes") && count(src, "kept0[r0] = ") == 2 && count(src, "= kept0[r0];") == 1,
          "softmax: the kept value's row array, stored by loop 2 (lanes and tail), read by loop 3");
    check(count(src, "fl_exp_nonpos(") == 2, "softmax: exp computed in loop 2 only (its lane loop and its tail)");
    check(count(src, kPragma) == 1, "softmax: one interleaved loop");
    check(count(src, "__builtin_prefetch(") == 2 && has(src, "const long nq = q + 1;"), "softmax: the next row's input and output fetched ahead");
    check(k.plan.size() == p.choices.size() && k.plan[3].subject.rfind("1 / ", 0) == 0 && !has(k.plan[3].subject, codegen::kOperand) &&
              has(src, "fl_opaque(1.0f / " + k.plan[3].subject.substr(4) + ")"),
          "softmax: the reciprocal printed once per row, its operand named in Kernel::plan (" + (k.plan.size() > 3 ? k.plan[3].subject : "") + ")");
    check(emit(s, p).source == k.source, "softmax: the same plan prints the same source");

    // the plan, not the emitter, decides: without its kept value, interleave and prefetch
    KernelPlan bare = p;
    bare.kept.clear();
    bare.loops[1].interleave.clear();
    bare.loops[1].prefetch = false;
    const std::string plain = loops(emit(s, bare));
    check(!has(plain, "kept0") && count(plain, "fl_exp_nonpos(") == 3, "softmax without a kept value: exp computed again in loop 3");
    check(!has(plain, kPragma) && !has(plain, "__builtin_prefetch("), "softmax without interleave or prefetch: neither printed");
}

static void chainSource() {
    auto s = hand::chain(64, 65536);
    KernelPlan p = planOf(s);
    const std::string src = loops(emit(s, p));
    check(has(src, "fl_stage_a[64]") && has(src, "fl_this[x1 - b0]") && count(src, kPragma) == 2, "chain: two stages, each stage's loop interleaved");
    check(has(src, "for (long b0 = j0; b0 < j1; b0 += 64)") && has(src, "// the next row block's inputs and outputs"), "chain: blocks fetched ahead");

    KernelPlan one = p;
    one.twoStageCut = nullptr;
    one.interleave = "fl_tanh";
    const std::string single = loops(emit(s, one));
    check(!has(single, "fl_stage_a") && count(single, kPragma) == 1 && has(single, "__builtin_prefetch("), "chain in one stage: as the plan says");
}

static void rmsNormSource() {
    auto s = hand::rmsNorm(4096, 1024);
    codegen::Target small;
    small.streamBytes = int64_t(16) << 20;
    KernelPlan p = planOf(s, small);
    codegen::Kernel k = emit(s, p);
    check(has(k.source, "static inline void fl_stream_row(") && has(loops(k), "alignas(64) float ") && has(loops(k), "__atomic_thread_fence"),
          "rmsnorm: its output rows streamed");
    check(k.plan.size() == 2 && k.plan[1].subject.rfind("fl_rsqrt of t", 0) == 0 && has(loops(k), "fl_opaque(fl_rsqrt(" + k.plan[1].subject.substr(12) + "))"),
          "rmsnorm: the opaque reciprocal, its operand named (" + (k.plan.size() > 1 ? k.plan[1].subject : "") + ")");
    p.loops[1].streamed.clear();
    codegen::Kernel plain = emit(s, p);
    check(!has(plain.source, "fl_stream_row") && !has(plain.source, "__atomic_thread_fence"), "rmsnorm, not streamed: ordinary stores");
}

// exp of the row's max, read by two loops: computed once per row, in the row's scope
static void rowFixedSource() {
    auto s = hand::expOfMax(64, 512);
    const std::string src = loops(emit(s, planOf(s)));
    check(!has(src, "kept0") && count(src, "fl_exp(") == 1, "exp of the row's max: printed once, before the loops that read it");
}

static void handMadePlans() {
    auto s = hand::pointwise("", 8, 8);
    KernelPlan p = planOf(s);
    check(!has(emit(s, p).source, kPragma), "x + 1: no pragma");
    p.interleave = "fl_exp";
    check(count(emit(s, p).source, kPragma) == 1, "x + 1 with a hand-made interleave: the pragma, though it calls no costly math");

    auto relu = hand::pointwise("torch.relu", 8, 8);
    KernelPlan rp = planOf(relu);
    check(has(emit(relu, rp).source, "const float fl_k0 = fl_opaque(0.0f);"), "relu: the compared zero's opaque copy");
    rp.opaqueConstants.clear();
    const std::string plain = loops(emit(relu, rp));
    check(!has(plain, "fl_k0") && !has(plain, "fl_opaque") && has(plain, " < 0.0f ? 0.0f : "), "relu with a plan that hides no constant: the zero printed as it is");

    auto sin = hand::pointwise("torch.sin", 8, 1000);
    KernelPlan sp = planOf(sin);
    check(has(emit(sin, sp).source, "_rows_fast(") && has(emit(sin, sp).source, "fl_sin_fast(fl_big, "), "sin: the fast version first");
    sp.versioned = false;
    const std::string once = emit(sin, sp).source;
    check(!has(once, "_rows_fast(") && !has(once, "fl_big") && has(loops(emit(sin, sp)), "fl_sin("), "sin with a plan in one version: one version, full sin");
}

int main() {
    softmaxSource();
    chainSource();
    rmsNormSource();
    rowFixedSource();
    handMadePlans();
    std::printf("emit: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
