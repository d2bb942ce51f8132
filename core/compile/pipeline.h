// The compile pipeline: a captured graph -> callable kernels, as a list of passes run in order
// (pipeline.cpp, kPasses). Each pass is a function that can be called alone (the unit tests do);
// run() times and logs them in one place. The result is plain data: core/runtime runs it on
// cached calls, the reports and the window read it. No LibTorch here.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/capture/capture.h"
#include "core/codegen/codegen.h"
#include "core/fuse/fuse.h"
#include "core/lower/lower.h"

namespace fl::jit {
class KernelLib;
}

namespace fl::compile {

// Milliseconds per phase; the steps themselves, in order, are CompiledCode::phaseSpans.
struct Phases {
    double trace = 0, lower = 0, fuse = 0, codegen = 0, jit = 0;
    double total() const { return trace + lower + fuse + codegen + jit; }
};

// What the passes make of one captured graph.
struct Artifact {
    lower::Lowered lowered;
    std::vector<std::vector<int>> deps; // per program node: the nodes it must run after
    std::vector<bool> needsValue;       // per program node: its whole value is read
    bool recomputable = true;           // no op with side effects or randomness: backward may rerun the graph
    fuse::Schedule schedule;
    std::vector<int> order; // execution units (see fuse::executionOrder)
    std::vector<codegen::KernelPlan> plans; // per kernel, in order: codegen's choices
    std::vector<codegen::Kernel> kernels;
    std::map<int, size_t> kernelOfGroup; // schedule group -> kernel
    std::vector<int> producerOf;         // captured graph node -> program node holding its value
    std::string translationUnit;
    std::vector<size_t> compiledAs; // per kernel: the kernel whose code it runs (itself, or an earlier twin)
    std::string key; // cache key of the graph
    std::shared_ptr<jit::KernelLib> lib;
    std::vector<void*> fns; // per kernel
    Phases phases;
};

// ---- the passes, in pipeline order
// lower: the entry's graph (CapturedGraph::printable, the one explain prints and the window draws)
// as loop IR (pointwise, reduction, extern and fallback nodes).
void lowerPass(const graph::Graph& g, Artifact& a);
// dependencies: per program node, what it reads and what must run before it (an in-place op is a
// barrier), which values are read whole, and whether rerunning the graph is harmless.
void dependencyPass(const graph::Graph& g, Artifact& a);
// fuse: the scheduler's groups and decisions, and the order the units run in.
void fusePass(Artifact& a);
// plan: per kernel, codegen's choices as data (kept values, row values, interleave, prefetching,
// two stages, streamed outputs), each with its reason, for this machine (codegen::hostTarget).
void planPass(Artifact& a);
// emit: the plans printed as the kernels' C++, the translation unit, the graph's cache key.
void emitPass(const graph::Graph& g, Artifact& a);
// The unit the jit compiles: each distinct kernel once. Kernels that differ only in their names,
// their buffers' names (bufN, inN) and comments compute the same thing (a model's repeated layer:
// 86 kernels of a 12-layer transformer are 9 distinct ones); each later one runs the first's code.
// `compiledAs[k]` says whose code kernel k runs.
std::string jitUnit(const std::vector<codegen::Kernel>& kernels, std::vector<size_t>& compiledAs);
// jit: the distinct kernels (jitUnit) compiled and loaded (or found in a cache); false, with `status.error`,
// when it did not compile. Adds the JIT's own steps to status.phaseSpans from `begin` on.
bool jitPass(Artifact& a, capture::CompiledCode& status, int64_t beginNs);

// All passes in order, each timed (Artifact::phases, status.phaseSpans). Never throws: on failure
// status.ok is false and status.error says why.
void run(const capture::CapturedGraph& g, double traceMs, Artifact& a, capture::CompiledCode& status);

// The pass names, in the order run() calls them (docs and tests).
std::vector<std::string> passNames();

} // namespace fl::compile
