// The compiled-graph runtime: compiles a captured graph (lower -> fuse -> codegen -> jit) and runs
// it on each cached call. Kernels run on a thread pool over their rows; externs call LibTorch
// (OpenBLAS underneath); fallback ops run eagerly as recorded. Intermediate buffers are taken
// from and returned to a pool keyed by size, so memory is reused between kernels. When grad mode
// is on and an input requires grad, the compiled forward is wrapped in an autograd function
// whose backward recomputes the graph eagerly and differentiates it.
// This header has no LibTorch: capture.cpp and the command line include it.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/capture/capture.h"
#include "core/codegen/codegen.h"
#include "core/fuse/fuse.h"
#include "core/lower/lower.h"

namespace fl::jit { class KernelLib; }

namespace fl::runtime {

// One measured step of a compile, with its start on the steady clock (ns, events::now()).
struct PhaseSpan {
    std::string name;   // "lower", "fuse", "codegen", "jit frontend", "jit optimisation", "jit machine code", "load", ...
    int64_t beginNs = 0;
    double ms = 0;
};

struct Phases {
    double trace = 0, lower = 0, fuse = 0, codegen = 0, jit = 0;
    std::vector<PhaseSpan> spans; // lower .. load, in order (jit sub-steps as the JIT measured them)
    double total() const { return trace + lower + fuse + codegen + jit; }
};

struct Compiled {
    lower::Lowered lowered;
    std::vector<std::vector<int>> deps;   // per program node
    std::vector<bool> needsValue;         // per program node
    fuse::Schedule schedule;
    std::vector<int> order;               // execution units (see fuse::executionOrder)
    std::vector<codegen::Kernel> kernels;
    std::map<int, size_t> kernelOfGroup;  // schedule group -> kernel
    std::vector<int> producerOf;          // captured graph node -> program node holding its value
    std::string translationUnit;
    std::string key;                      // cache key of the graph
    std::shared_ptr<jit::KernelLib> lib;
    std::vector<void*> fns;               // per kernel
    std::string cache = "miss";           // "miss", "memory", "disk"
    std::string jitBackend;               // "llvm", "cc", "disk"
    Phases phases;
    std::string error;                    // why the graph runs on the reference path
    bool ok = false;
    bool recomputable = true;             // no op with side effects or randomness: backward may rerun the graph
    int calls = 0, fallbacks = 0;         // calls that ran compiled / on the reference path
};

// Compiles an entry's graph. Never throws; on failure `ok` is false and `error` says why.
std::shared_ptr<Compiled> compile(const capture::Entry& e, double traceMs);

// Runs a compiled graph: `env` holds the placeholders' values; fills in the values the exit plan
// reads. Returns false (env untouched past the placeholders) when the call must take the
// reference path: an input's size or dtype differs from what the kernels were made for.
bool execute(script::Interp& in, const capture::CapturedGraph& g, Compiled& c, std::vector<script::Value>& env);

// True when the compiled graph may run again after its trace ran it: it compiled, and has no op
// with side effects or randomness.
bool rerunnable(const Compiled& c);

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

// Which backend compiles graphs: "fuselab" (default) or "reference" (replay the captured ops).
void setBackend(const std::string& name);
const std::string& backend();

} // namespace fl::runtime
