// `fuselab bench`: after a script has run (with its compiled calls recorded), replays each distinct
// call into a compiled function or module with its recorded inputs and measures, in one run:
// the first call (trace + compile + run, after forgetting every compiled frame), the compile
// phases, the cached median, eager's median on the same inputs, the largest difference between
// the two, the minimum bytes a call must move and the bandwidth that achieves, next to the
// machine's copy bandwidth measured in the same process: before and after the calls, and between
// each call's own timed runs (the figure its "% of copy" divides by).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/runtime/runtime.h"

namespace fl::inspect {

using runtime::Phases;

struct BenchCall {
    std::string function;
    std::string file;
    int line = 0;
    std::string inputs;         // "f32[32, 256]"
    double firstCallMs = 0, compileMs = 0, cachedMs = 0, eagerMs = 0, speedup = 0, maxAbsDiff = 0;
    Phases phases;
    int64_t bytesMin = 0;
    double achievedGbps = 0;
    // the copies timed between this call's blocks (timeAlternating's probes), or for a call with
    // library calls, beside which OpenBLAS's threads spin, the report's copyGbps (copyProbes 0)
    double copyGbps = 0;
    int copyProbes = 0;
    int kernels = 0, externs = 0, fallbacks = 0;
    std::string cache;          // "hit" | "miss" (the kernels' compile cache at the first call)
    std::string jit;            // "llvm", "cc", "disk"
    int cachedRuns = 0, eagerRuns = 0;
    bool gradMode = true;       // the grad mode the script called it under, and the replays ran in
    // A call with grad whose graph computes from inputs that require grad: each timed run is a
    // training step's share of it, the call and backward() of its outputs (each output's gradient
    // all ones), compiled (forward and backward) against eager. `backward` says which backward ran.
    bool training = false;
    std::string backward;       // "compiled" or "eager (why)"
    std::string note;           // why a call ran on the reference path, if it did; timed runs that spread (spreadNote)
};

// backward() of a call's float outputs that require grad, each with a gradient of ones: the
// backward a training step runs after the call (what the loss adds before it is the same eagerly
// and compiled). Bench and the profiler time it.
void backwardOf(const script::Value& result);

struct BenchReport {
    std::string machine;        // CPU model
    int cores = 0;
    std::string blas;           // the BLAS kernels LibTorch's matmuls run on (blasCore())
    std::string blasNote;       // blasChoiceNote(): whether fuselab had OpenBLAS choose again
    std::string libtorch, compiler;
    int threads = 0;
    double copyGbps = 0;        // the copies timed before the first call and after the last
    std::vector<BenchCall> calls;
};

// Untimed runs before a block of timed ones: runs start while less than ms have passed since the
// block began, at most maxRuns of them, and always at least one.
struct Settle {
    double ms = 0;
    int maxRuns = 1;
};

struct BenchOptions {
    static constexpr int kUnbounded = 1 << 30;
    // per measurement: repeat until this much time has passed (2 s for the two kinds together):
    // with 0.6 s a burst of load from elsewhere moved a whole median more often (15 runs of each
    // anchor: transformer_block down to 1.08x, masked_softmax down to 68% of copy; with 2 s,
    // 1.11x and 91%)
    double minSeconds = 1.0;
    // at least 12 samples of each kind: a call of 100 ms and more (transformer_block) gets six
    // rounds instead of three, so that one burst of load moves its median less
    int minRuns = 12, maxRuns = 1000;
    // untimed runs before each block of timed ones (see timeAlternating), per kind: a call of
    // kernels only, both kinds for 20 ms; a call with library calls, the cached call for 8 ms (at
    // most 4 runs) and eager for one run (runBench says why)
    Settle cached{20, kUnbounded}, eager{20, kUnbounded};
    Settle cachedBesideLibrary{8, 4}, eagerBesideLibrary{0, 1};
    // a copy probe at the start of an even round once probeEveryMs have passed since the last one
    // (and in the first round): a call's % of copy then compares times taken in the same seconds,
    // so a burst of load from elsewhere slows both; spaced so that a short call's eager blocks
    // still follow each other closely (see timeAlternating)
    double probeEveryMs = 40;
};

// Where a recorded call lands, for reports: the called function's name, file and line; for a module
// of the nn prelude, the script line that called it. Shared by bench and the profiler.
struct CallSite {
    std::string function, file;
    int line = 0;
};
CallSite callSite(const capture::Session::RecordedCall& rc);
// What makes two recorded calls one call site for bench and profile: the function (for a method,
// its function and receiver), the inputs as `inputs` describes them, and the grad mode.
std::pair<const void*, std::string> callIdentity(const capture::Session::RecordedCall& rc, const std::string& inputs);

// Times a and b in alternating blocks: per round, untimed runs of a (settleA) then kTimed timed
// ones, the same for b (settleB), b first in odd rounds, until both have minRuns samples and
// 2 * minSeconds have passed (at most maxRuns samples each). Each timed run follows runs of its
// own kind, as in back-to-back timing (the untimed runs absorb what the other kind left behind:
// dirty lines to write back, its data in the caches in place of ours, threads still spinning),
// while a burst of load from elsewhere on a shared machine, which lasts longer than a round, slows
// both alike. The bench passes the cached call as a and the eager one as b (bench.cpp says how
// long each settles). probe, when given, runs at the start of even rounds (between two blocks of
// a, never next to one of b) once o.probeEveryMs have passed since the last probe, and in the
// first round; it returns its own sample in milliseconds (the bench's: a copy of 64 MiB after five
// untimed ones), kept if positive. clockMs, when given, is the clock in milliseconds (tests drive
// one of their own, so that what they count does not depend on the machine's load).
struct AlternatingTimes {
    static constexpr int kTimed = 2;
    std::vector<double> a, b;  // the timed runs' milliseconds
    std::vector<double> probe; // the probes' samples
};
AlternatingTimes timeAlternating(const BenchOptions& o, Settle settleA, Settle settleB, const std::function<void()>& a,
                                 const std::function<void()>& b, const std::function<double()>& probe = {},
                                 const std::function<double()>& clockMs = {});

// A note for the report when a kind's timed runs spread so far that the median is not a steady
// time: the median at least kSpreadRatio times the fastest run (a stall in many of them, such as
// LibTorch's eager call waiting for its threads on scheduler ticks). Empty otherwise. `kind` names
// the runs ("cached", "eager").
constexpr double kSpreadRatio = 4;
std::string spreadNote(const std::string& kind, const std::vector<double>& samples);

// Replays the calls the run's capture session recorded; the script has finished running.
BenchReport runBench(script::Interp& in, const BenchOptions& opts);
std::string benchText(const BenchReport& r);
// Shared by bench and the profiler: the median of a sample (0 when empty); the CPU's model name.
double median(std::vector<double> v);
std::string cpuModel();
std::string benchJson(const BenchReport& r);

} // namespace fl::inspect
