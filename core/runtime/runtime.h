// The compiled-graph runtime: compiles a captured graph (core/compile: lower -> fuse -> emit -> jit) and runs
// it on each cached call. Kernels run on a thread pool over their rows; externs call LibTorch
// (OpenBLAS underneath); fallback ops run eagerly as recorded. Intermediate buffers are taken
// from and returned to a pool keyed by size, so memory is reused between kernels. When grad mode
// is on and an input requires grad, the compiled training forward runs and its outputs carry an
// autograd node running the compiled backward (training.cpp), or recomputing the graph eagerly.
// This header has no LibTorch: core/run, core/inspect and the profiler include it.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/autograd/autograd.h"
#include "core/capture/capture.h"
#include "core/compile/pipeline.h"

namespace fl::jit { class KernelLib; }

namespace fl::runtime {

using capture::PhaseSpan;
using fl::compile::Phases;

struct TrainingCode;

// Fuselab's code for one captured graph: what the compile pipeline made (compile::Artifact: the
// loop IR, schedule, kernels, library), as the capture layer sees it (capture::CompiledCode:
// cache, jitBackend, error, ok, phaseSpans), and how its cached calls went.
struct Compiled final : capture::CompiledCode, fl::compile::Artifact {
    int calls = 0, fallbacks = 0;         // calls that ran compiled / on the reference path
    // Compiled training, for a graph with inputs that require grad (null: none of them does).
    std::shared_ptr<TrainingCode> training;

    bool execute(script::Interp& in, const capture::CapturedGraph& g, std::vector<script::Value>& env) override;
    bool rerunnable() const override { return ok && recomputable; }
    size_t kernelCount() const override { return kernels.size(); }
    capture::BackwardFacts backwardFacts() const override;
};

// Compiled training (core/autograd, docs/compiler.md "Compiled training"): the joint graph and its
// partition, made with the entry's code; the training forward (the captured graph also returning
// the values the backward reads), compiled at the first call with grad; the backward graph,
// compiled at the first backward(). Outputs of a call with grad carry a CompiledFunctionBackward
// node that runs it.
struct TrainingCode {
    autograd::Training graphs;           // joint graph, partition decisions (forward/backward moved below)
    capture::CapturedGraph forwardGraph; // the training forward as runnable ops (printable: graphs' forward)
    capture::CapturedGraph backwardGraph; // the backward as runnable ops (printable: graphs' backward)
    std::shared_ptr<Compiled> forward, backward; // null until first needed
    // per backward output: the tangents its value depends on. A gradient none of whose tangents
    // was given (the outputs it flows from were not used) is None, as in eager, not zeros.
    std::vector<std::vector<int>> outputTangents;
    std::string error;                   // why calls with grad take the eager-backward path ("" when they do not)
    int calls = 0, backwardCalls = 0;    // calls with grad that ran it; backward() calls that ran the compiled backward
    int backwardFallbacks = 0;           // backward() calls that ran the backward graph op by op
};

// The code Fuselab compiled for an entry (null: none, it is replayed op by op).
inline const Compiled* compiledOf(const capture::Entry& e) { return dynamic_cast<const Compiled*>(e.compiled.get()); }
inline Compiled* compiledOf(capture::Entry& e) { return dynamic_cast<Compiled*>(e.compiled.get()); }

// Compiles an entry's graph (compile::run). Never throws; on failure `ok` is false and `error` says why.
std::shared_ptr<Compiled> compile(const capture::Entry& e, double traceMs);

// Fuselab's compiler as the capture layer's backend (compile() for each committed graph); the
// layer that wires a run together (core/run) installs it. One object for the process.
capture::Backend* fuselabBackend();

// Threads used by kernels and by LibTorch's intra-op pool (default: LibTorch's count).
void setThreads(int n);
int threads();

// LibTorch's grad mode set for as long as this lives, then the previous one restored: the replays
// of a recorded call (bench, profile) run under the grad mode the script called it in.
class GradModeScope {
public:
    explicit GradModeScope(bool enabled);
    ~GradModeScope();
    GradModeScope(const GradModeScope&) = delete;
    GradModeScope& operator=(const GradModeScope&) = delete;

private:
    bool saved_;
};

} // namespace fl::runtime
