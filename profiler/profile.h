// The profile of one run: where compile time went (per compile id, phase by phase), what cached
// calls cost (guards, dispatch, each kernel / library call / eager op) next to eager, and when
// compiling pays for itself. A plain struct: the window's Timing pane, `fuselab profile` and the
// Trace Event export all read it. Built from the run's event log (core/support/events.h) plus
// replays of the recorded calls, like `fuselab bench`. No Qt, no LibTorch in this header.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fl::script { class Interp; }

namespace fl::profiler {

// One step of a compile, or any timed span. Times are ms from the profile's origin (the start of
// the script's parse).
struct PhaseTime {
    std::string name;      // parse, trace, guard build, lower, fuse, codegen, jit frontend, jit optimisation,
                           // jit machine code, jit (cc), load, cache write, first run, ...
    double startMs = 0;
    double ms = 0;
};

struct CompileProfile {
    std::string id;                // "0/0", Dynamo's [frame/compile]
    std::string function, file;
    int line = 0;
    std::string status;            // compiled | eager | error | empty
    std::string cache;             // miss | hit (disk) | hit (memory) | none (nothing compiled)
    std::string jit;               // llvm | cc | disk | ""
    int kernels = 0;
    double startMs = 0;
    double firstCallMs = 0;        // measured around the compile id: trace start .. end of its first run
    double compileMs = 0;          // the phases before the first run
    double phaseSumMs = 0;         // every phase, first run included
    std::vector<PhaseTime> phases;
    // compiled training's compiles (the training forward at the first call with grad, the backward
    // at the first backward()): "training forward lower", "backward jit frontend", ...
    std::vector<PhaseTime> trainingPhases;
    double backwardCompileMs = 0;  // the backward's phases among them (0: no backward was compiled)
};

struct KernelTime {
    std::string name;              // cpp_fused_gelu_0, aten::mm + cpp_fused_add_1, torch.nn.functional.conv2d
    std::string kind;              // kernel | extern | fallback (GPU: kernel | memcpy)
    std::string graph;             // compile id of its graph
    int count = 0;                 // launches per call
    double totalMs = 0;            // per call (mean over the profiled calls)
    double meanMs = 0;             // per launch
    double share = 0;              // of the profiled call's time, 0..1
    std::vector<int> lines;        // script lines it covers
};

struct CallProfile {
    std::string function, file;
    int line = 0;
    std::string inputs;            // "torch.Size([32, 256]) torch.float32"
    std::vector<std::string> compileIds; // compiled by its first call in the run
    double firstCallMs = 0;        // the first call in the run, wall time
    double compileMs = 0;          // sum of those compile ids' compileMs
    double cachedMs = 0;           // median of cached calls, profiling off
    double profiledMs = 0;         // median of cached calls with the kernel timers on
    double eagerMs = 0;            // median of the same call run eagerly
    int cachedRuns = 0, profiledRuns = 0, eagerRuns = 0;
    double guardNs = 0;            // guard evaluation per cached call (median)
    double dispatchMs = 0;         // graph time outside kernels, library calls and eager ops (median)
    double otherMs = 0;            // call time outside guards and graphs: binding, exits, eager code between graphs
    std::vector<KernelTime> kernels;
    // A call with grad whose graph has compiled training: backward() of its outputs (each
    // gradient all ones, as `fuselab bench` runs it), timed apart from the call that made them.
    bool training = false;
    std::string backward;          // "compiled" or "eager (why)": which backward the cached call gets
    double backwardMs = 0;         // median backward() after a cached call
    double eagerBackwardMs = 0;    // median backward() after the same call run eagerly
    int backwardRuns = 0, eagerBackwardRuns = 0;
    long long breakEvenCalls = -1; // ceil(compileMs / (eagerMs - cachedMs)); -1: never (cached is not faster)
    // the same over the spread of the runs: the best case (eager's upper quartile against cached's
    // lower) and the worst (eager's lower against cached's upper; -1: never)
    long long breakEvenLow = -1, breakEvenHigh = -1;
    double cachedQ1 = 0, cachedQ3 = 0, eagerQ1 = 0, eagerQ3 = 0; // quartiles of the runs
    std::string breakEven() const; // "12 calls (9 to 20)", "never", or "n/a" when its first call compiled nothing
    std::string note;
};

// A graph break or a recompile (or the recompile limit), with its reason.
struct InstantEvent {
    std::string kind;              // graph break | recompile | recompile limit
    bool isBreak = false;          // a graph break (the event's category), else a recompile or its limit
    std::string id;                // compile id
    double atMs = 0;
    std::string reason, file;
    int line = 0;
    std::vector<std::pair<std::string, std::string>> args; // every detail the event carried
};

// Any span of the timeline: script phases, compile phases, cached calls, guards, graphs, kernels.
struct SpanEvent {
    std::string track;             // "script", "compile 0/0", "runtime", "kernels", "replay: runtime", ...
    std::string name, category;
    double startMs = 0, ms = 0;
    std::vector<std::pair<std::string, std::string>> args;
};

struct CounterEvent {
    std::string track, name;
    double atMs = 0, value = 0;
};

struct Profile {
    std::string file;
    // machine, threads, versions: every figure is reported with them
    std::string machine, libtorch, compiler, fuselab;
    int cores = 0, threads = 0;
    double parseMs = 0, startupMs = 0, runMs = 0;
    std::vector<CompileProfile> compiles;
    std::vector<CallProfile> calls;
    std::vector<InstantEvent> instants;
    std::vector<SpanEvent> spans;
    std::vector<CounterEvent> counters;
    size_t droppedEvents = 0;
    bool replayed = false;         // calls were replayed (cached / eager medians, kernel table)
    std::string note;              // e.g. "time budget reached: 2 of 5 calls replayed"
};

struct CollectOptions {
    double budgetSeconds = 20;     // all replays together stop after this (the window uses ~1 s)
    double minSeconds = 0.2;       // per measurement: repeat until this much time has passed ...
    int minRuns = 5, maxRuns = 1000; // ... with at least / at most this many runs
    bool replay = true;            // false: only what the run itself recorded
    bool kernelTimers = true;      // per-kernel timing in the profiled replays
};

// For RunConfig::beforeRun: records every top-level compiled call and turns the event log on
// (compile phases, calls, guards).
void prepare(script::Interp& in);
// For RunConfig::afterRun: builds the profile from the event log, replaying the recorded calls for
// cached / profiled / eager medians within the time budget.
Profile collect(script::Interp& in, const CollectOptions& opts = {});

// Trace Event JSON (Perfetto, chrome://tracing): X spans, i instants, C counters, M names.
std::string traceJson(const Profile& p);
// The summary `fuselab profile` prints.
std::string profileText(const Profile& p);
std::string profileJson(const Profile& p);

} // namespace fl::profiler
