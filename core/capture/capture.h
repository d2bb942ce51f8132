// Capture: what torch.compile's Dynamo does, inside Fuselab's interpreter. A call into a compiled
// function or module runs its body under a Tracer: tensor ops are executed and recorded as graph
// nodes, Python values read from the inputs become guards, and an operation the tracer cannot put
// in a graph breaks it. Each compiled code object (a function, or the rest of one after a break)
// is a frame with a cache of entries (guards + graph + what to do after the graph).
// See ../shared/CAPTURE-SPEC.md for the behaviour matched, and docs/capture.md.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/graph/graph.h"
#include "core/script/ast.h"
#include "core/script/hooks.h"
#include "core/script/interp.h"
#include "core/script/value.h"
#include "core/support/events.h"

namespace fl::capture {

using script::Value;
using script::Interp;
using script::CompileOptions;
using script::OpInvoke;

// ---------------------------------------------------------------- break registry
// Every kind of graph break has a stable id, a reason, an explanation and hints (Dynamo's words).
struct BreakKind {
    const char* id;          // "print", "item", ...; stable, used in JSON and tests
    const char* gb;          // Dynamo's registry id ("gb0059")
    std::string reason;
    std::string explanation;
    std::vector<std::string> hints;
};

// Thrown through the interpreter by an operation that cannot be traced.
struct GraphBreakSignal : script::ControlSignal {
    BreakKind kind;
    std::string context;  // what was being traced: "CALL: a function call, e.g. f(x, y)"
    int depth = 0;        // interpreter depth at the break (root frame: the traced frame's depth)
    bool inLoop = false;  // inside a loop / with / try of the traced frame: it cannot be resumed
    std::vector<std::string> userStack; // "  File \"m.py\", line 6, in f\n    print(x)"
    std::string file;
    int line = 0;
};

// ---------------------------------------------------------------- sources and guards
struct SourceStep {
    enum Kind : uint8_t { Local, Global, Attr, Item, Closure } kind = Local;
    std::string name; // local/global/attribute name, or dict key
    int64_t index = -1; // Item on a list/tuple (name empty)
    std::string display; // Local: the name Dynamo shows (___stack0 for a resumed call's value)
};
struct Source {
    std::vector<SourceStep> steps;
    std::string str() const;      // Dynamo's form: L['self']._modules['fc'].training, G['step']
    std::string userName() const; // the failure-reason form: self._modules['fc'].training, G['step']
    Source plus(SourceStep s) const { Source r = *this; r.steps.push_back(std::move(s)); return r; }
};

struct TensorSpec {
    int dtype = 0;          // at::ScalarType
    bool requiresGrad = false;
    std::vector<int64_t> sizes, strides;
    std::vector<uint8_t> dynamic; // per dim: 1 = symbolic (any size >= 2)
    // Per dim: -1 when its stride is the constant in `strides`, else the dim j whose size times
    // stride it is (a dense layout: x.t() has stride[1] = size[0] * stride[0]). With dynamic
    // sizes a stride is checked as that expression, so a graph traced on a transposed input
    // does not run a row-major one (whose results eager lays out otherwise).
    std::vector<int8_t> strideFrom;
    // The strides this spec expects for a tensor of these sizes (the traced ones when static).
    void expectedStrides(const int64_t* sizes, int64_t* out) const;
    bool strideDynamic(size_t d) const; // depends on a dynamic size
};

enum class GuardKind : uint8_t { GradMode, Tensor, Equals, IsNone, IdMatch, Length, DictKeys, ScalarType, InstanceType };

struct Guard {
    GuardKind kind = GuardKind::Equals;
    Source src;
    TensorSpec tensor;        // Tensor
    Value expected;           // Equals / IdMatch (the object) / DictKeys (a tuple of keys) / InstanceType (the class)
    int64_t length = 0;       // Length
    bool gradMode = true;     // GradMode
    int64_t objId = 0;        // IdMatch / InstanceType: a deterministic number for the object / class
    std::string userLine;     // "# return x * c  # m.py:5 in f"
    std::string describe() const; // the guard as listed ("TENSOR_MATCH: check_tensor(L['x'], ...)")
};

// ---------------------------------------------------------------- recorded graphs
// An argument of a recorded op: a constant, a node's result (or one element of a tuple result),
// or a list/tuple/dict of those.
struct ArgT {
    enum Kind : uint8_t { Const, Ref, List, Tuple, Dict, Src } kind = Const;
    Source src;         // Src: an object from outside (an input, a global), found again each call
    int slot = -1;      // Src: its slot in the entry's source plan
    Value c;            // Const; Dict keys in `keys`
    int node = -1;      // Ref
    int index = -1;     // Ref into a tuple result
    std::vector<ArgT> items;
    std::vector<Value> keys;
};

// The value of a recorded argument, given the graph's node values; `ensure` (optional) is called
// with each node a Ref reads before it is read.
Value instantiateArg(const ArgT& a, std::vector<Value>& env, const std::function<void(int)>& ensure);

struct OpNode {
    bool placeholder = false;
    bool scalar = false; // a symbolic int/float input
    Source source;      // placeholders
    bool constant = false; // placeholder bound to a tensor with no source (a closure or a literal)
    Value constValue;
    std::string target; // "torch.add", "Tensor.sum", "operator.mul", "torch.nn.functional.gelu"
    OpInvoke invoke;
    std::vector<ArgT> pos;
    std::vector<std::pair<std::string, ArgT>> kw;
    // for display
    std::vector<graph::TensorMeta> meta;
    graph::SourceSpan span;
    std::string modulePath;
    std::vector<std::string> userStack;
};

struct CapturedGraph {
    std::vector<OpNode> nodes;
    std::vector<ArgT> outputs; // refs the exit template reads (by position)
    graph::Graph printable;
    int ops = 0;
};

// What a frame's compiled code does after its graph: return, or run the breaking statement
// eagerly and continue in a resume frame.
struct ExitPlan {
    enum Kind : uint8_t { Return, AfterStmt, IfTest } kind = Return;
    ArgT ret;                                     // Return
    std::vector<int> path;                        // statement path of the break
    std::vector<std::pair<const script::Expr*, ArgT>> subst; // completed sub-expressions of it
    std::vector<std::pair<std::string, ArgT>> locals;         // live locals after the graph
    std::string stackAlias; // `name = call()` broke at the call: the resume frame sees ___stack0
};

// ---------------------------------------------------------------- the backend interface
// Capture hands each committed graph to a backend, which the layer that wires a run together
// registers (core/run: Fuselab's compiler, core/runtime). Capture knows no more of it than this.
struct PhaseSpan {
    std::string name;   // "lower", "fuse", "codegen", "jit frontend", "jit optimisation", "jit machine code", "load", ...
    int64_t beginNs = 0; // on the steady clock (events::now())
    double ms = 0;
};

// Compiled training of a graph whose inputs require grad, as the reports show it (the backend's
// joint graph and partition: core/autograd, core/runtime).
struct BackwardFacts {
    bool present = false;  // some input requires grad
    bool compiled = false; // calls with grad run the compiled forward and backward
    std::string why;       // else why they take the eager-backward path
    int nodes = 0, saved = 0, recomputed = 0; // backward graph ops; forward values saved / recomputed
    int kernels = -1;      // backward kernels (-1: not compiled yet, no backward() has run)
    int calls = 0, backwardCalls = 0;
    int backwardFallbacks = 0; // backward() calls whose compiled code could not run (op by op instead)
};

// What a backend made of one graph.
class CompiledCode {
public:
    virtual ~CompiledCode() = default;
    // Runs the graph: `env` holds the placeholders' values; fills in the values the exit plan
    // reads. Returns false (env untouched past the placeholders) when the call must take the
    // reference path: an input's size or dtype differs from what the code was made for.
    virtual bool execute(Interp& in, const CapturedGraph& g, std::vector<Value>& env) = 0;
    // It compiled, and may run again after its trace ran it (no side effects, no randomness).
    virtual bool rerunnable() const = 0;
    virtual size_t kernelCount() const = 0;
    virtual BackwardFacts backwardFacts() const { return {}; }
    std::vector<PhaseSpan> phaseSpans; // the compile's steps, in order
    std::string compileId;             // the entry's ("0/1"): what events name the code by
    std::string cache = "miss";        // "miss", "memory", "disk"
    std::string jitBackend;            // "llvm", "cc", "disk"
    std::string error;                 // why the graph runs on the reference path
    bool ok = false;
};

struct Entry;
class Backend {
public:
    virtual ~Backend() = default;
    // Compiles an entry's graph. Never throws; on failure the result's `ok` is false and its
    // `error` says why.
    virtual std::shared_ptr<CompiledCode> compile(const Entry& e, double traceMs) = 0;
};

// Sources of an entry's guards and graph inputs as a tree of accessors (shared prefixes are
// resolved once per call): slot i = step applied to slot `parent` (-1: the frame's scope).
struct SourceSlot {
    int parent = -1;
    SourceStep step;
    Value key; // a dict key, made once
};

// What became of an entry: a graph (with ops), an empty graph, a trace that failed, or a frame
// that runs eagerly (a break inside a loop). statusName() gives the word the reports print.
enum class EntryStatus : uint8_t { Compiled, Empty, Error, Eager };
const char* statusName(EntryStatus s);

struct Entry {
    std::string id; // "0/1"
    std::vector<Guard> guards;
    std::vector<SourceSlot> slots;
    std::vector<int> guardSlot;       // per guard (-1: none)
    std::vector<int> placeholderSlot; // per graph node (-1: not a sourced placeholder)
    CapturedGraph graph;
    ExitPlan exit;
    EntryStatus status = EntryStatus::Compiled;
    std::shared_ptr<CompiledCode> compiled; // the backend's code (null: replayed op by op)
};

struct FrameKey {
    const void* code = nullptr;  // FunctionDefStmt / LambdaExpr
    std::string path;            // "" for the function itself, "3.0.1" for a resume point
    bool operator<(const FrameKey& o) const { return code != o.code ? code < o.code : path < o.path; }
};

struct CFrame {
    int index = -1;          // Dynamo's frame number (order of first compile)
    FrameKey key;
    std::string function;    // "f", or "torch_dynamo_resume_in_f_at_6"
    std::string qualname;    // the function's qualified name: "Block.forward" (of the resumed one too)
    std::string file;
    int line = 0;            // first line of the function (or of the resume statement)
    std::vector<int> path;
    std::vector<std::unique_ptr<Entry>> entries;
    int compiles = 0;
    bool skip = false;       // runs eagerly (graph break in a loop)
    bool limitHit = false;   // recompile limit reached: misses run eagerly
    int calls = 0;           // calls into the frame so far
    int limitCall = 0;       // the call (1-based) that hit the recompile limit
    size_t resetAt = 0;      // torch._dynamo.reset(): entries before this index are no longer looked up
    script::ScopeP lastScope; // inputs of the latest call (guard benchmark)
    std::map<std::string, std::string> aliases; // local name -> name shown in guards
    CompileOptions opts;
    // automatic dynamic shapes: sizes seen per tensor source, dims that became dynamic
    std::map<std::string, std::vector<int64_t>> seenSizes;
    std::map<std::string, std::vector<uint8_t>> dynamicDims;
    std::map<std::string, Value> seenScalars;  // int/float inputs at the first compile
    std::set<std::string> dynamicScalars;      // those that changed: symbolic from then on
};

// ---------------------------------------------------------------- the report (event log)
// A graph break as recorded (events::BreakFacts), from its kind's words.
events::BreakFacts breakFacts(const std::string& id, const BreakKind& kind);
struct RecompileEvent {
    std::string id, function, file;
    int line = 0;
    std::vector<std::string> reasons; // "0/0: c == 1", most recent entry first
    std::vector<std::string> comments; // the user line of each reason (may be empty)
    std::string callFile;              // the user line that made the call that recompiled
    int callLine = 0;                  // (0: none, e.g. a resume frame called by its function)
};
struct LimitEvent {
    std::string id, function, file;
    int line = 0;
    std::string lastReason;
};

struct Report {
    std::vector<events::BreakFacts> breaks;
    std::vector<RecompileEvent> recompiles;
    std::vector<LimitEvent> limits;
};

// ---------------------------------------------------------------- logging
struct LogChannels {
    bool graphBreaks = false, recompiles = false, recompilesVerbose = false, guards = false, graphCode = false;
    bool aotGraphs = false, aotJointGraph = false; // compiled training's forward and backward / joint graph
    static LogChannels fromEnv(); // FUSELAB_LOGS, else TORCH_LOGS ("graph_breaks,recompiles,...")
};

class Tracer;

// Per-run capture state: the interpreter's compile hooks (install()).
class Session final : public script::CompileHooks {
public:
    Session(Interp& in, Backend* backend);
    ~Session() override;

    // A call into a torch.compile'd function or module (`fn` is the user function, `self` bound
    // first when it is a method). Returns the call's result.
    Value callCompiled(const Value& fn, script::CallArgs& args, const CompileOptions& opts) override;
    // A user function called from eager code inside a compiled region becomes a frame of its own.
    bool intercepting() const override { return interceptDepth_ > 0; }
    Value callAsFrame(script::FunctionObj* fn, script::CallArgs& args) override;
    // torch.compiler.disable'd function: runs with interception off
    Value callDisabled(const Value& fn, script::CallArgs& args) override;
    // torch._dynamo.reset() / torch.compiler.reset(): compiled code is dropped (the report keeps it)
    void reset() override;
    // Compiles committed graphs (null: every graph is replayed op by op, the reference path).
    Backend* backend = nullptr;

    const Report& report() const { return report_; }
    const std::vector<CFrame*>& framesInOrder() const { return order_; }
    int graphCount() const;
    LogChannels logs;
    std::function<void(const std::string&)> logSink; // default: the interpreter's stderr
    bool enabled = true; // false: torch.compile runs eagerly (fuselab run --no-compile)
    events::Log events;  // the run's event log: compile phases, breaks, recompiles, calls (core/support/events.h)
    int recompileLimit = 8;

    int64_t objectId(const script::Obj* o); // deterministic id for ___check_obj_id

    // Benchmark support: the guard check of each frame's newest entry against the inputs of its
    // last call, timed over `iterations` checks; the median of `repeats` batches, per check.
    struct GuardTiming { std::string id; int guards = 0; double nanos = 0; bool passed = false; };
    std::vector<GuardTiming> timeGuards(int iterations, int repeats);

    // Benchmark support: every top-level call into a compiled function or module, as made.
    struct RecordedCall {
        Value fn;
        script::CallArgs args;
        CompileOptions opts;
        bool gradMode = true;   // torch.is_grad_enabled() at the call: a replay restores it
        // the interpreter's frames at the call (the script's line that made it is the innermost
        // user frame's): the bench's first call runs on top of them, so that what it traces names
        // the same script lines (kernel comments, and so the kernel source and its cache entry, are
        // those of the script's own call)
        std::vector<script::Frame> stack;
    };
    bool recordCalls = false;
    std::vector<RecordedCall> recorded;
    // Forgets every compiled frame, like torch._dynamo.reset(): the next call traces and compiles.
    void resetFrames();
    // The latest cached graph call: bytes of its tensor inputs and outputs, and its entry.
    struct LastGraph { int64_t bytesIn = 0, bytesOut = 0; const Entry* entry = nullptr; };
    LastGraph lastGraph;

    // used by the tracer and the interpreter's frame execution
    Interp& interp() { return in_; }
    // Runs fn's body from statement path `path` (empty: the whole function) as a compiled frame.
    Value runFrame(script::FunctionObj* fn, const std::vector<int>& path, const script::ScopeP& scope, const CompileOptions& opts, int breakLine = 0);
    Value afterGraph(Entry& e, CFrame& fr, script::FunctionObj* fn, const script::ScopeP& scope,
                     std::vector<std::pair<const script::Expr*, Value>>& subst);
    void log(const std::string& cid, const std::string& channel, const std::string& text);

private:
    Value callTimed(script::FunctionObj* fn, script::CallArgs& args, const CompileOptions& opts);
    // Records a graph break, once: the report keeps it; the event log and TORCH_LOGS show it.
    void recordBreak(events::BreakFacts b);
    Value trace(CFrame& fr, script::FunctionObj* fn, const script::ScopeP& scope);
    Value runEager(CFrame& fr, script::FunctionObj* fn, const script::ScopeP& scope);
    Value replay(Entry& e, CFrame& fr, script::FunctionObj* fn, const script::ScopeP& scope, std::vector<Value>& vals, std::vector<uint8_t>& state);
    CFrame& frameFor(const FrameKey& key, script::FunctionObj* fn, const std::vector<int>& path, int breakLine);

    Interp& in_;
    std::map<FrameKey, std::unique_ptr<CFrame>> frames_;
    std::vector<CFrame*> order_; // compiled frames by index
    Report report_;
    int interceptDepth_ = 0;
    int compiledFns_ = 0;
    CompileOptions currentOpts_;
    std::unordered_map<const script::Obj*, int64_t> objIds_;
    friend class Tracer;
};

// The break kinds, by id ("print", "item", "tolist", "data_dependent", "graph_break", "nonzero",
// "backward", "disable", "skipped", "loop").
const BreakKind& breakKind(const std::string& id);

// Makes a Session the interpreter's compile hooks, compiling with `backend` (null: none).
Session& install(Interp& in, Backend* backend);
// The session install() made (precondition: one was installed).
Session& session(Interp& in);
const Session& session(const Interp& in);

// Explain report: text and JSON.
// What a user should look at first (explain's summary): each distinct graph break, each frame that
// recompiled (on how many of its calls), each recompile-limit hit.
struct Problem {
    std::string kind;   // "graph break", "recompiles", "recompile limit"
    std::string ids;    // the compile ids involved: "0/0, 1/0"
    std::string file;
    int line = 0;
    std::string text;   // one line, what happened and what it costs
    // The line in user code that led there: for a break inside a helper, the compiled frame's
    // line that called it; for recompiles, the line that made the last recompiling call.
    std::string callFile;
    int callLine = 0;
};
std::vector<Problem> problems(const Session& s);

// A break's user stack from the compiled function it happened in (frames above it, such as the
// script's `<module>` line that called the model, dropped): "File \"m.py\", line 20, in forward"
// entries, outermost first. Breaks with the same chain and reason are one distinct break.
std::vector<std::string> breakChain(const Session& s, const events::BreakFacts& b);

// An argument a frame was specialized on that took different values from entry to entry (a
// Python int read by range(), say): its name, the values its entries were compiled for, in order,
// and what read it (from the guard's user line).
struct ChangedArgument {
    std::string name;                // "n"
    std::vector<std::string> values; // "1", "2", "3"
    std::string by;                  // "range()" when a call reads it, else ""
    std::string file;                // the line that read it
    int line = 0;
    std::string describe() const;    // "n: 1 → 2 → 3, specialized by range()"
};
std::vector<ChangedArgument> changedArguments(const CFrame& fr);
std::string explainText(const Session& s, const std::string& file, const std::string& output);
std::string explainJson(const Session& s, const std::string& file, const std::string& output);

} // namespace fl::capture
