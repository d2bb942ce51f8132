// A snapshot of what capture and the compiler did in a finished run, as plain data: each compiled
// entry's graph (nodes, edges, script lines), guards, kernels (with the graph nodes each source
// line refers to), fusion decisions and the grouping after each of them; graph breaks and
// recompiles with the script lines they point at. The window takes one at the end of a run (the
// interpreter and its session are gone afterwards) and draws only from it. No Qt, no LibTorch.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/support/events.h"

// No capture or runtime headers here: Qt code includes this one, and Qt's `slots` keyword would
// clash with capture's field of that name.
namespace fl::capture { class Session; }
namespace fl::script { class Interp; }

namespace fl::inspect {

struct SnapNode {
    enum class Kind { Input, Parameter, Op, Extern, Fallback, Output };
    int id = 0;                 // index in SnapEntry::nodes (captured graph order; the output node last)
    std::string name;           // "linear_1"
    std::string op;             // "torch.nn.functional.gelu", "placeholder", "output"
    std::string shape;          // "f32[32, 256]"
    std::string dtype;          // "float32" (of the first result; "" for non-tensors)
    std::string strides;        // "[256, 1]" as eager gave them at trace time ("" unknown)
    Kind kind = Kind::Op;
    std::string module;         // "layers.0.attn"
    int line = 0, col = 0, endCol = 0; // in the script (0: not in the script)
    std::vector<int> inputs;    // nodes it reads
    int kernel = -1;            // SnapEntry::kernels index of the kernel / library call that computes it
};

struct SnapKernel {
    std::string name;           // "cpp_fused_bias_gelu_0", "mm", "eager torch.nonzero"
    std::string kind;           // "kernel", "library", "eager"
    std::string source;         // kernels: the C++; others: what runs
    std::vector<int> nodes;     // graph nodes it covers
    std::vector<int> lines;     // script lines it covers, ascending
    std::vector<std::vector<int>> lineNodes; // per line of `source`: graph nodes that line refers to
};

struct SnapDecision {
    int step = 0;
    std::string kind;           // vertical, horizontal, epilogue
    std::string a, b;           // "buf4(bias) + buf5(gelu)"
    std::vector<int> aNodes, bNodes; // graph nodes of each side
    double score = 0;
    int64_t bytesSaved = 0;
    bool fused = false;
    std::string reason;
};

struct SnapGuard {
    std::string text;           // as Dynamo lists it
    std::string userLine;       // "# return x * c  # m.py:5 in f"
    int line = 0;               // that line in the script (0: none)
};

struct SnapTraining;

struct SnapEntry {
    std::string id;             // "0/1"
    std::string function, file;
    std::string qualname;       // "Block.forward" (a resume frame: the function it resumes)
    int line = 0;
    std::string status;         // compiled | empty | error | eager
    bool limitHit = false;      // the frame reached the recompile limit: later misses run eagerly
    int ops = 0;
    std::vector<SnapGuard> guards;
    std::string graphCode;
    std::vector<SnapNode> nodes;
    std::vector<SnapKernel> kernels;
    std::vector<SnapDecision> decisions;
    // groupsAt[s][node]: the group of each graph node after the first s decisions (s = 0: before
    // any); -1 for nodes that no kernel or library call computes (inputs, views).
    std::vector<std::vector<int>> groupsAt;
    std::string backend;        // "llvm", "cc", "disk", "reference"
    std::string cache;          // miss, memory, disk
    std::string note;           // why it runs on the reference path, if it does
    std::string ir, assembly;   // when asked for
    double traceMs = 0, lowerMs = 0, fuseMs = 0, codegenMs = 0, jitMs = 0; // compile phases
    int calls = 0;
    // Compiled training, for a graph whose inputs require grad (null: none of them does).
    std::shared_ptr<const SnapTraining> training;
    // A snapshot taken while the run compiles (SnapshotOptions::capturedOnly): the graph is
    // captured, its kernels, fusion decisions and timing are not in this snapshot yet.
    bool pending = false;
};

// One choice of the training partitioner, in order: a forward value the backward reads is saved
// (kept from the forward until backward) or recomputed in the backward.
struct SnapPartition {
    std::string name;           // the forward value ("gelu", "L_x_")
    bool saved = true;
    int64_t bytes = 0;          // its size (0: unknown)
    std::string reason;         // one line: why
    int node = -1;              // its node in the captured graph (SnapEntry::nodes)
    int backwardNode = -1;      // its saved placeholder, or the node that recomputes it, in the backward (-1: none)
};

// Compiled training of an entry (core/autograd, core/runtime TrainingCode): the graphs as the
// graph view draws them, what bridges forward and backward, and the partitioner's decisions.
// `forward` and `backward` carry kernels, fusion decisions and groups once compiled (the
// training forward at the first call with grad, the backward at the first backward()).
struct SnapTraining {
    bool compiled = false;      // calls with grad run the compiled forward and backward
    std::string why;            // else why they take the eager-backward path
    SnapEntry forward;          // the captured graph also returning the saved values
    SnapEntry backward;         // (saved..., tangents...) -> one grad per input that requires grad
    SnapEntry joint;            // forward nodes (the captured graph's ids), then the rules' backward nodes
    std::vector<int> savedFrom;      // per backward node: the captured node a saved placeholder holds, else -1
    std::vector<int> recomputedFrom; // per backward node: the captured node it recomputes, else -1
    std::vector<int> tangentOf;      // per backward node: the output position a tangent is the grad of, else -1
    int jointForwardNodes = 0;  // joint nodes before the first backward one
    std::vector<SnapPartition> decisions;
    int calls = 0, backwardCalls = 0;
};


struct SnapRecompile {
    std::string id, function, file;
    int line = 0;               // the function's line
    std::vector<std::string> reasons;   // "0/0: c == 1"
    std::vector<std::string> userLines; // the guard's user line per reason
    std::vector<int> guardLines;        // per reason: the script line that created the guard, else the
                                        // function's first line (0: neither is in the script)
    bool limitHit = false;
    int callLine = 0;                   // the script line whose call recompiled (0: not in the script)
    std::vector<std::string> changed;   // the frame's arguments that changed: "n: 1 → 2 → 3, specialized by range()"
};

// One row of the Problems pane (capture::problems, as explain prints them first).
struct SnapProblem {
    std::string kind;           // "graph break", "recompiles", "recompile limit"
    std::string ids;            // compile ids involved
    std::string text;
    int line = 0;               // in the script (0: not in the script)
    int callLine = 0;           // the script line that led there (the call of the helper that broke,
                                // the call that recompiled); 0: none in the script
};

struct Snapshot {
    std::string file;           // the script, as the run named it
    std::vector<std::string> imports; // the .py files the script imported from disk, in order
    std::vector<SnapProblem> problems;
    std::vector<SnapEntry> entries;
    std::vector<events::BreakFacts> breaks; // as capture recorded them
    // per break: its user stack from the compiled function in ("File \"m.py\", line 20, in
    // forward", outermost first; capture::breakChain): the helper calls that led to it
    std::vector<std::vector<std::string>> breakChains;
    std::vector<SnapRecompile> recompiles; // recompile-limit hits included, with limitHit set
    int graphCount = 0;
    // Taken during the run, as capture handed a graph to the compiler (watchCompiles): graphs,
    // guards, breaks and recompiles so far; kernels come with the snapshot at the end of the run.
    bool partial = false;
    int compilingEntry = -1; // partial: the entry whose kernels were being compiled
};

struct SnapshotOptions {
    bool irAndAssembly = false; // LLVM IR and assembly of each compiled module (slower)
    bool capturedOnly = false;  // what capture made only: no kernels, decisions or training (partial)
};

Snapshot takeSnapshot(const capture::Session& s, const std::string& file, const SnapshotOptions& o = {});
// The same, from a finished run's interpreter (RunConfig::afterRun).
Snapshot takeSnapshot(script::Interp& in, const std::string& file, const SnapshotOptions& o = {});

// Watches a run's compiles: each time capture hands a graph to the compiler, before it is
// compiled, `captured` gets a partial snapshot of what capture has so far (the graph being compiled
// included, as compilingEntry), on the run thread; calls are skipped while the snapshots would cost
// more than a fifth of the run. stop() ends the calls (before a profiler's replays recompile).
// Keep the watch until the run's interpreter is gone. No watch (null) where nothing compiles.
class CompileWatch {
public:
    virtual ~CompileWatch() = default;
    virtual void stop() = 0;
};
std::shared_ptr<CompileWatch> watchCompiles(script::Interp& in, const std::string& file, std::function<void(Snapshot)> captured);

// "m.py:12" in a user-line comment or "File \"m.py\", line 12" in a stack entry: the line number
// when the file is `file` (compared by base name), else 0.
int scriptLineIn(const std::string& text, const std::string& file);

} // namespace fl::inspect
