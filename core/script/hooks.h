// The interpreter's hooks: what a layer above it is told while it traces a frame, and what a
// call to torch.compile hands over. The interpreter calls these and knows nothing of what they do:
// core/capture implements them (its Tracer and Session), core/run installs them for a run. With no
// hooks installed, torch.compile'd functions simply run. Like CPython's frame-evaluation hook,
// which lets Dynamo plug into an interpreter it does not own.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/script/ast.h"
#include "core/script/value.h"

namespace fl::script {

class Interp;
struct FunctionObj;

// A tensor op as the bindings run it: re-runnable by the layer that records it.
using OpInvoke = std::function<Value(Interp&, CallArgs&)>;

// Thrown through the interpreter by a hook to stop what it is doing (a graph break). It is not a
// Python exception: no `except` clause sees it, and the bindings pass it on untouched.
struct ControlSignal {
    virtual ~ControlSignal() = default;
};

// A value the tracer knows as part of its graph (a symbolic scalar, an arithmetic node on one, a
// tensor's node or a constant), by number. The interpreter only carries it from an operand to the
// op that consumes it.
struct SymRef {
    int id = -1;
};

// torch.compile's arguments.
struct CompileOptions {
    bool fullgraph = false;
    int dynamic = -1; // -1 automatic, 0 False, 1 True
    std::string backend = "inductor", mode = "default";
};

// Called while a compiled frame is traced (Interp::tracer is set). Fields are the traced frame's
// position, which the interpreter keeps up to date; methods are events.
class TraceHooks {
public:
    virtual ~TraceHooks() = default;

    // ---- the traced ("root") frame and where in it the interpreter is
    Scope* rootScope = nullptr;    // the traced frame's scope
    Scope* userGlobals = nullptr;  // the module scope of the traced function
    int rootDepth = 0;             // interpreter call depth of the traced frame
    std::vector<int> path;         // statement path of the current root statement
    bool inIfTest = false;         // evaluating the test of a root-level `if`
    int loopDepth = 0;             // >0: inside a loop / with / try / comprehension of the root frame
    const Expr* curExpr = nullptr; // the expression being evaluated (source spans of graph nodes)
    // the root-level call being evaluated, its statement path and its occurrence in the statement
    const CallExpr* rootCall = nullptr;
    std::vector<int> rootCallPath;
    int rootCallOcc = 0;
    std::map<const CallExpr*, int> callOcc; // per call expression: evaluations in this statement
    // symbolic arguments of the call or binary op about to run, consumed by the op that records it
    std::vector<std::pair<int, SymRef>> pendingPos;
    std::vector<std::pair<std::string, SymRef>> pendingKw;
    const CallArgs* pendingCall = nullptr;
    size_t pendingCount = 0;
    bool pendingBinary = false;

    virtual bool atRoot() const = 0; // the interpreter is in the root frame
    virtual void beginStmt(const Stmt* st) = 0;
    virtual void exprDone(const Expr* e, const Value& v) = 0;
    virtual void beforeRootCall(const CallExpr* c) = 0; // may throw a ControlSignal

    // ---- reads and writes of Python values
    virtual void onLocalRead(const std::string& name, const Value& v) = 0;
    virtual void onStore(const std::string& name) = 0;
    virtual void onGlobalRead(const std::string& name, const Value& v) = 0;
    virtual void onClosureRead(const std::string& name, const Value& v) = 0;
    virtual void onGlobalStore(const std::string& name) = 0;
    virtual void onAttr(const Value& base, const std::string& name, const Value& result) = 0;
    virtual void onItem(const Value& base, const Value& key, const Value& result) = 0;
    virtual void onSeqUse(const Value& seq) = 0;
    virtual void onMutate(const Value& obj) = 0;
    virtual void afterAssign(const Expr* target, const Expr* value, const Value& v) = 0;
    virtual void metadataRead(const Value& tensor) = 0; // a size or stride read

    // ---- symbolic scalars (names whose value is a graph input)
    virtual bool isSymName(const std::string& name) const = 0;
    virtual void specializeName(const std::string& name) = 0;
    virtual SymRef scalarPlaceholder(const std::string& name, const Value& v) = 0;
    virtual SymRef symBinary(BinOpKind op, const Value& l, SymRef lt, const Value& r, SymRef rt, Value& out) = 0;
    virtual SymRef symOf(const Value& v) = 0; // any value as a graph argument

    // ---- ops and breaks
    virtual Value op(const std::string& target, CallArgs& ca, const OpInvoke& run) = 0;
    // Stops the trace with a graph break of kind `id` (may return when breaks are suspended).
    virtual void maybeBreak(const std::string& id, const std::string& detail) = 0;
};

// What torch.compile hands over (Interp::compileHooks).
class CompileHooks {
public:
    virtual ~CompileHooks() = default;
    // A call into a torch.compile'd function or module's forward (`fn`, bound first when a method).
    virtual Value callCompiled(const Value& fn, CallArgs& args, const CompileOptions& opts) = 0;
    // A user function called from eager code inside a compiled region: a frame of its own.
    virtual bool intercepting() const = 0;
    virtual Value callAsFrame(FunctionObj* fn, CallArgs& args) = 0;
    // A torch.compiler.disable'd function.
    virtual Value callDisabled(const Value& fn, CallArgs& args) = 0;
    // torch._dynamo.reset(): forget every compiled entry, as if nothing had been compiled
    virtual void reset() {}
};

// A tensor value's c10::ScalarType (defined with the torch bindings, for code that has no ATen).
int tensorDtypeOf(const Value& v);
// Records a tensor op when tracing, otherwise runs it. Used by the torch bindings.
Value traceOp(Interp& in, const std::string& target, CallArgs& ca, const OpInvoke& run);
// A graph break of kind `id` ("print", "item", ...) when tracing; otherwise nothing.
void maybeBreak(Interp& in, const std::string& id, const std::string& detail = {});

} // namespace fl::script
