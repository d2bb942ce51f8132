// Codegen's plan pass alone: graphs built by hand, lowered and fused, then codegen::plan(); each
// decision is checked as data (no C++ is printed here). Links fuselab_codegen and what it depends
// on (fuse, lower, graph) only, against their include view: planning needs no capture, emitter
// or LibTorch.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "../support/check.h"
#include "../support/hand_graphs.h"
#include "core/codegen/plan.h"
#include "core/codegen/view.h"

using namespace fl;
using codegen::ChoiceKind;
using codegen::KernelPlan;

static std::vector<KernelPlan> plans(const hand::Scheduled& s, const codegen::Target& t = {}) {
    return codegen::planKernels(s.program(), s.schedule, s.order, t);
}

// "kind subject" per choice, in order: what `fuselab kernels --plan` lists (reasons aside).
static std::vector<std::string> listed(const KernelPlan& p) {
    std::vector<std::string> r;
    for (auto& c : p.choices) r.push_back(std::string(codegen::choiceName(c.kind)) + " " + c.subject);
    return r;
}
static std::string joined(const std::vector<std::string>& v) {
    std::string r;
    for (auto& s : v) r += (r.empty() ? "" : " | ") + s;
    return r;
}
static bool reasoned(const KernelPlan& p) {
    return std::all_of(p.choices.begin(), p.choices.end(), [](const codegen::Choice& c) { return c.reason.size() > 20; });
}
static int64_t constant(const lower::IE& e) {
    int64_t v = -1;
    return e && lower::constValue(e, v) ? v : -1;
}

// softmax: max, then sum of exp, then exp / sum: exp is kept for the row, 1 / sum computed once
static void softmaxPlan() {
    auto s = hand::softmax(64, 1024);
    auto ps = plans(s);
    check(ps.size() == 1 && ps[0].reduction, "softmax: one reduction kernel");
    if (ps.size() != 1) return;
    const KernelPlan& p = ps[0];
    check(constant(p.rows) == 64 && p.costPerRow == 1024 && p.rowLength == 1024, "softmax: 64 rows of 1024");
    check(p.loops.size() == 3 && p.loops[0].reductions.size() == 1 && p.loops[1].reductions.size() == 1 && p.loops[2].stores.size() == 1,
          "softmax: three loops (max, sum, the output)");
    check(p.kept.size() == 1 && p.kept[0].array == "kept0" && p.kept[0].loop == 2 && p.kept[0].value.find("Fexp_nonpos(") == 0,
          "softmax: exp(x - max) is computed by loop 2 into kept0, read back by loop 3");
    check(p.loops.size() == 3 && p.loops[1].interleave == "fl_exp_nonpos" && p.loops[0].interleave.empty() && p.loops[2].interleave.empty(),
          "softmax: only the exp loop is bound by math (loop 3 reads the kept values)");
    check(p.loops.size() == 3 && p.loops[1].prefetch && !p.loops[0].prefetch && !p.loops[1].blocked, "softmax: the exp loop fetches the next row");
    const bool writes = std::any_of(p.prefetches.begin(), p.prefetches.end(), [](const codegen::Prefetch& f) { return f.write; });
    check(!p.prefetches.empty() && writes, "softmax: the next row's input, and its output for writing");
    check(p.reciprocals.size() == 1 && p.opaqueRowValues.empty(), "softmax: one reciprocal of the row's sum");
    check(!p.streams() && !p.versioned && p.opaqueConstants.empty() && !p.twoStageCut, "softmax: nothing else");
    check(listed(p) == std::vector<std::string>{"prefetch ahead loop 2", "kept value kept0 (fl_exp_nonpos)", "interleave loop 2", "row value 1 / {}"},
          "softmax: the choices, in the order the source shows them (" + joined(listed(p)) + ")");
    check(reasoned(p), "softmax: every choice has its reason");

    // a row too long to keep: exp is computed twice, nothing kept
    auto longRows = plans(hand::softmax(4, 8192));
    check(longRows.size() == 1 && longRows[0].kept.empty() && longRows[0].loops.size() == 3 && longRows[0].loops[2].interleave == "fl_exp_nonpos",
          "softmax over rows of 8192: no row array, the output loop computes exp again");
}

// layer_norm: mean and 1 / sqrt(var + eps) fixed for the row, the reciprocal hidden from the optimizer
static void layerNormPlan() {
    auto ps = plans(hand::layerNorm(32, 1024));
    check(ps.size() == 1 && ps[0].reduction, "layer_norm: one reduction kernel");
    if (ps.size() != 1) return;
    const KernelPlan& p = ps[0];
    check(!p.rowValues.empty(), "layer_norm: values fixed for the row, computed once before its loops");
    bool rsqrt = std::any_of(p.rowValues.begin(), p.rowValues.end(), [](const std::string& v) { return v.find("Frsqrt(") == 0; });
    check(rsqrt, "layer_norm: rsqrt(var + eps) is one of them");
    check(p.opaqueRowValues.size() == 1 && p.choices[p.opaqueRowValues.begin()->second].subject == "fl_rsqrt of {}",
          "layer_norm: the reciprocal passes through fl_opaque (its operand named by the emitter)");
    check(p.kept.empty() && p.prefetches.empty() && !p.streams(), "layer_norm: no costly math: nothing kept or fetched ahead");
    check(std::all_of(p.loops.begin(), p.loops.end(), [](const codegen::ReductionLoop& l) { return l.interleave.empty(); }), "layer_norm: no loop interleaved");
    check(listed(p) == std::vector<std::string>{"row value fl_rsqrt of {}"}, "layer_norm: one choice (" + joined(listed(p)) + ")");
}

// sigmoid then tanh of it: two stages a block apart; long rows are blocked and fetched ahead
static void chainPlan() {
    auto ps = plans(hand::chain(64, 65536));
    check(ps.size() == 1 && !ps[0].reduction, "chain: one pointwise kernel");
    if (ps.size() != 1) return;
    const KernelPlan& p = ps[0];
    auto s = hand::chain(64, 65536);
    check(p.blocked && constant(p.blocks) == 16 && constant(p.rows) == 64 * 16 && p.costPerRow == 4096, "chain: rows of 65536 in 16 blocks of 4096");
    check(!p.prefetches.empty() && std::any_of(p.prefetches.begin(), p.prefetches.end(), [](const codegen::Prefetch& f) { return f.write; }),
          "chain: the next block's input and output are fetched ahead");
    check(p.twoStageCut && s.program().nodes[p.twoStageCut->buffer].what == "mul", "chain: x * sigmoid(x) is the first stage");
    check(p.firstStageInterleave == "fl_sigmoid" && p.secondStageInterleave == "fl_tanh" && p.interleave.empty(),
          "chain: each stage's loop interleaved for its own costly call");
    check(listed(p) == std::vector<std::string>{"prefetch ahead the next row block", "two stages buf2 (mul)", "interleave the first block's first stage",
                                                "interleave the last block's second stage"},
          "chain: the choices (" + joined(listed(p)) + ")");
    check(reasoned(p), "chain: every choice has its reason");

    auto mid = plans(hand::chain(8, 256));
    check(mid.size() == 1 && !mid[0].blocked && mid[0].prefetches.empty() && mid[0].twoStageCut, "chain over rows of 256: two stages, nothing fetched ahead");
    auto shortRows = plans(hand::chain(8, 64));
    check(shortRows.size() == 1 && !shortRows[0].twoStageCut && shortRows[0].interleave == "fl_sigmoid",
          "chain over rows of 64 (one block): one stage, the loop interleaved (the first costly call in the op table's order)");
}

// rmsnorm: the output is streamed past the caches when the target's cache is small enough
static void rmsNormPlan() {
    auto s = hand::rmsNorm(4096, 1024);
    codegen::Target small;
    small.streamBytes = int64_t(16) << 20;
    auto ps = plans(s, small);
    check(ps.size() == 1 && ps[0].loops.size() == 2, "rmsnorm: one kernel, two loops");
    if (ps.size() != 1 || ps[0].loops.size() != 2) return;
    const KernelPlan& p = ps[0];
    check(p.loops[1].streamed == p.loops[1].stores && p.loops[1].streamed.size() == 1 && p.streams(), "rmsnorm: its 16 MiB output is streamed");
    check(p.loops[1].interleave.empty() && p.prefetches.empty(), "rmsnorm: not bound by math");
    check(listed(p) == std::vector<std::string>{"streamed " + s.program().nodes[p.loops[1].stores[0]].name, "row value fl_rsqrt of {}"},
          "rmsnorm: streamed, then the row's reciprocal (" + joined(listed(p)) + ")");
    codegen::Target big;
    big.streamBytes = int64_t(64) << 20;
    auto unstreamed = plans(s, big);
    check(unstreamed.size() == 1 && !unstreamed[0].streams() && unstreamed[0].choices.size() == 1, "rmsnorm: kept in a larger cache, not streamed");
}

// a costly value fixed for the row is computed once per row, before the loops: never kept in a row
// array (which the row's scope, outside the loops, cannot index)
static void rowFixedCostlyPlan() {
    auto ps = plans(hand::expOfMax(64, 512));
    check(ps.size() == 1 && ps[0].loops.size() == 3, "exp of the row's max: one kernel, three loops");
    if (ps.size() != 1) return;
    const KernelPlan& p = ps[0];
    bool exp = std::any_of(p.rowValues.begin(), p.rowValues.end(), [](const std::string& v) { return v.find("Fexp(") == 0; });
    check(exp && p.kept.empty(), "exp of the row's max: a row value, not a kept one (" + joined(listed(p)) + ")");
    check(std::all_of(p.loops.begin(), p.loops.end(), [](const codegen::ReductionLoop& l) { return l.interleave.empty(); }),
          "exp of the row's max: no loop computes it, none interleaved");
}

// kernels that call for nothing, or for one thing
static void smallPlans() {
    auto cheap = plans(hand::pointwise("", 8, 8));
    check(cheap.size() == 1, "x + 1: one kernel");
    if (cheap.size() == 1) {
        const KernelPlan& p = cheap[0];
        check(p.choices.empty() && p.interleave.empty() && p.prefetches.empty() && !p.twoStageCut && !p.blocked && !p.versioned &&
                  p.opaqueConstants.empty() && constant(p.rows) == 8 && p.costPerRow == 8,
              "x + 1: plain loops, no choice (" + joined(listed(p)) + ")");
    }
    auto relu = plans(hand::pointwise("torch.relu", 8, 8));
    check(relu.size() == 1 && relu[0].opaqueConstants == std::vector<std::string>{"0.0f"} &&
              listed(relu[0]) == std::vector<std::string>{"opaque constant 0.0f"},
          "relu: its compared zero, hidden from the optimizer, is its only choice");
    auto sin = plans(hand::pointwise("torch.sin", 8, 1000));
    check(sin.size() == 1 && sin[0].versioned && sin[0].interleave == "fl_sin", "sin: a kernel in two versions, its loop interleaved");
}

int main() {
    softmaxPlan();
    layerNormPlan();
    chainPlan();
    rmsNormPlan();
    rowFixedCostlyPlan();
    smallPlans();
    std::printf("plan: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
