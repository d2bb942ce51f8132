// The model-script interpreter: a tree-walking evaluator of the AST with Python's semantics.
// Eager tensor work is delegated to the torch bindings (torch_api.h).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/script/ast.h"
#include "core/script/hooks.h"
#include "core/script/value.h"
#include "core/support/cancel.h"

namespace fl::script {

struct TraceEntry {
    std::string file;
    int line = 0;
    std::string function;
    std::string sourceLine; // stripped
};

// A Python exception travelling through C++. `exc` is an instance of a BaseException subclass.
struct PyException {
    Value exc;
    std::vector<TraceEntry> traceback; // outermost first
};

// Not catchable by scripts: the run was cancelled (timeout, Cancel button).
struct Cancelled {};

struct Frame {
    std::string function;
    const Module* module = nullptr;
    int line = 0;
    ClassObj* owner = nullptr; // class that defined the running method (zero-argument super)
    Value firstArg;            // its first argument (self)
};

struct Evaluator;

struct RunOptions {
    std::function<void(const std::string&)> out; // script stdout; default: std::cout
    std::function<void(const std::string&)> err; // warnings; default: std::cerr
    std::function<void()> flush;                 // print(flush=True): push stdout out now (default: std::cout)
    const CancelToken* cancel = nullptr;
    int recursionLimit = 1000;
    int64_t maxAllocBytes = int64_t(8) << 30;   // one tensor / list / string
    // Where `import NAME` looks for NAME.py and NAME/__init__.py, in order (the script's folder,
    // PYTHONPATH, the user's site and dist packages: see importPathsFor below). Reading
    // .py files to import them is the only file access a script has.
    std::vector<std::string> importPaths;
    std::vector<std::string> argv; // sys.argv: the script's path, then its arguments
};

// Where a script's imports look, in order, as the user's python3 would: the script's folder (when
// `scriptPath` names a file), then, with `environment`, PYTHONPATH's entries, the active virtual
// environment's site-packages, the user's ~/.local site-packages and the system's dist-packages
// for /usr/bin/python3's version.
std::vector<std::string> importPathsFor(const std::string& scriptPath, bool environment);

class Interp {
public:
    explicit Interp(RunOptions opts = {});
    ~Interp();
    Interp(const Interp&) = delete;
    Interp& operator=(const Interp&) = delete;

    // Runs a parsed module as __main__. Throws PyException (SystemExit included) and Cancelled.
    void runMain(const std::shared_ptr<Module>& mod);
    // Executes a module body in a fresh namespace with `preset` names; returns the namespace.
    ScopeP runModule(const std::shared_ptr<Module>& mod, const std::string& name,
                     const std::vector<std::pair<std::string, Value>>& preset);

    // ---- the object protocol, usable from native code
    Value call(const Value& f, CallArgs& args);
    Value call(const Value& f, std::vector<Value> pos) { CallArgs a; a.pos = std::move(pos); return call(f, a); }
    Value callWithSelf(const Value& fn, const Value& self, CallArgs& args); // fn(self, *args)
    // Calling a class without a metaclass __call__: its __new__, then its __init__.
    Value instantiate(const Value& cls, CallArgs& args);
    // The script metaclass's method `name` for the class `o` (null when none: type's own behaviour).
    const Value* metaMethod(const Value& o, const char* name) const;
    Value getAttr(const Value& o, const std::string& name);
    bool tryGetAttr(const Value& o, const std::string& name, Value& out); // false: AttributeError
    bool classAttr(const Value& cls, const std::string& name, Value& out); // tryGetAttr on a class
    void setAttr(const Value& o, const std::string& name, const Value& v);
    void setClassAttr(const Value& cls, const std::string& name, const Value& v); // type.__setattr__
    void delAttr(const Value& o, const std::string& name);
    Value getItem(const Value& o, const Value& key);
    void setItem(const Value& o, const Value& key, const Value& v);
    void delItem(const Value& o, const Value& key);
    bool truthy(const Value& v);
    // An instance's __dict__: one live dict per instance (while a script holds it), kept in step
    // with its attributes both ways.
    Value instanceDict(const Value& instance);
    // The .py files the run has imported from disk (the project's modules and packages), in the
    // order they were first imported.
    std::vector<std::string> importedFiles() const;
    void setInstanceAttr(InstanceObj* inst, const std::string& name, const Value& v); // no __setattr__
    bool delInstanceAttr(InstanceObj* inst, const std::string& name);
    static void dictChanged(DictObj* d); // after a change to a dict: an instance's view updates it
    bool contains(const Value& container, const Value& item);
    Value iter(const Value& v);
    bool next(const Value& it, Value& out);
    std::vector<Value> toVector(const Value& iterable); // materialise any iterable
    int64_t len(const Value& v);
    std::string repr(const Value& v);
    std::string str(const Value& v);
    Value binary(BinOpKind op, const Value& a, const Value& b, bool inplace = false);
    Value bigBinary(BinOpKind op, const Value& a, const Value& b); // ints past 64 bits
    Value compare(CmpOpKind op, const Value& a, const Value& b);
    bool equals(const Value& a, const Value& b);
    ClassObj* typeOf(const Value& v);
    bool isInstance(const Value& v, const ClassObj* cls);
    std::string typeName(const Value& v);

    // ---- errors
    [[noreturn]] void raise(const ClassP& type, const std::string& msg);
    [[noreturn]] void raiseExc(const Value& exc); // throws with the current traceback
    [[noreturn]] void raiseType(const std::string& msg);
    [[noreturn]] void raiseValue(const std::string& msg);
    // StopIteration carrying what a finished generator returned (a plain one for None)
    [[noreturn]] void raiseStopIteration(const Value& returned);
    Value makeException(const ClassP& type, const std::string& msg);
    std::string formatException(const PyException& e); // traceback + "Type: message"
    std::string exceptionMessage(const Value& exc);     // str(exc)

    // ---- registration used by builtins and the torch bindings
    Value makeBuiltin(const std::string& name, NativeFn fn);
    ClassP makeClass(const std::string& name, const ClassP& base, const std::string& module = "builtins");
    void addMethod(const ClassP& cls, const std::string& name, NativeFn fn);
    ClassP builtinClass(const std::string& name) const; // "int", "ValueError", ...
    void setBuiltin(const std::string& name, const Value& v);
    void registerModule(const std::string& dottedName, const Value& module);
    Value findModule(const std::string& dottedName) const; // None if absent
    std::unordered_map<std::string, Value> registry;         // well-known objects (torch.nn.Module, ...)
    Value newModule(const std::string& name);
    void checkAlloc(int64_t bytes, const char* what); // MemoryError past maxAllocBytes
    void poll();                                    // cancellation point

    // Native method tables of builtin kinds (str, list, dict, tensor, ...), looked up by getAttr.
    std::unordered_map<std::string, NativeFn>& methodsOf(OK kind) { return methods_[int(kind)]; }
    std::unordered_map<std::string, NativeFn>& methodsOfPrim(Value::T t) { return methods_[-1 - int(t)]; }
    // Attribute hook for native kinds (tensor.shape, dtype.is_floating_point, ...).
    using AttrHook = std::function<bool(Interp&, const Value&, const std::string&, Value&)>;
    void setAttrHook(OK kind, AttrHook hook);

    RunOptions& options() { return opts_; }
    int nativeDepth = 0; // nesting of native recursion (comparisons of nested containers)
    std::vector<Frame>& frames() { return frames_; }
    const Value& noneV() const { return none_; }
    Value notImplemented; // the NotImplemented singleton

    // The classes scripts see; filled by the constructor.
    ClassP objectCls, typeCls, intCls, floatCls, boolCls, strCls, listCls, tupleCls, dictCls, setCls,
        noneCls, functionCls, builtinFnCls, moduleCls, rangeCls, sliceCls, iteratorCls, generatorCls, ellipsisCls,
        baseExc, exceptionCls, typeError, valueError, keyError, indexError, attributeError, nameError,
        unboundLocalError, zeroDivisionError, runtimeError, notImplementedError, recursionError,
        assertionError, stopIteration, importError, moduleNotFoundError, memoryError, overflowError,
        systemExit, keyboardInterrupt, generatorExit, lookupError, arithmeticError, unsupportedCls;
    ClassP tensorCls, dtypeCls, deviceCls, sizeCls, parameterCls, orderedDictCls;
    ClassP staticMethodCls, classMethodCls, propertyCls;
    int builtinMethodKey(const ClassObj* c) const;
    bool unwrapDescriptor(Value& v, const Value& instance, const Value& owner);

    // ---- the hooks of a layer above (core/capture, installed by core/run): see hooks.h
    TraceHooks* tracer = nullptr;               // set while a compiled frame is being traced
    int callDepth() const;                      // nesting of interpreted calls
    std::unique_ptr<CompileHooks> compileHooks; // torch.compile's handler (none: compiled calls run eagerly)
    // A fresh scope for a call of fn with its arguments bound.
    ScopeP bindCall(FunctionObj* fn, CallArgs& a);
    // Runs fn's body in `scope` from statement path `path` (empty: the start) inside fn's
    // interpreter frame. While tracing, statements of this frame are tracked for graph breaks.
    Value execFunctionFrom(FunctionObj* fn, const ScopeP& scope, const std::vector<int>& path);
    // Finishes the statement at `path` eagerly with completed sub-expressions substituted.
    // Returns true (and sets ret) when it returned from the function.
    bool execStmtSubst(FunctionObj* fn, const ScopeP& scope, const std::vector<int>& path,
                       const std::vector<std::pair<const Expr*, Value>>& subst, Value& ret);
    // Evaluates the test of the `if` at `path` with substitutions (a break in the condition).
    bool evalIfTestSubst(FunctionObj* fn, const ScopeP& scope, const std::vector<int>& path,
                         const std::vector<std::pair<const Expr*, Value>>& subst);
    // a lambda's body expression, likewise
    Value evalLambdaSubst(FunctionObj* fn, const ScopeP& scope, const std::vector<std::pair<const Expr*, Value>>& subst);
    // The statement at `path` in fn's body, and the path after it (empty when the body ends).
    static const Stmt* stmtAt(const Body& body, const std::vector<int>& path);
    static std::vector<int> nextPath(const Body& body, std::vector<int> path);

    struct Impl;
    std::unique_ptr<Impl> impl_;
    Evaluator& ev();

private:
    RunOptions opts_;
    std::vector<Frame> frames_;
    Value none_;
    std::unordered_map<int, std::unordered_map<std::string, NativeFn>> methods_;
    std::unordered_map<int, AttrHook> attrHooks_;
    std::unique_ptr<Evaluator> evaluator_;
    void installGeneratorMethods();
    void installTypeMethods();
    friend struct Evaluator;
};

// Argument binding for native functions: a signature like "input, dim=, keepdim=, *, dtype=".
// Names after '*' are keyword-only; a trailing '=' marks an optional parameter. "*args" collects
// extra positionals into the last slot as a tuple.
class Sig {
public:
    explicit Sig(std::string fname, const std::string& spec);
    // Returns one Value per parameter (Missing when not given). Raises TypeError like CPython.
    std::vector<Value> bind(Interp& in, CallArgs& a) const;
    const std::string& name() const { return fname_; }
    // The name of parameter i ("" past the last), and whether it is keyword-only.
    const std::string& paramName(size_t i) const {
        static const std::string kNone;
        return i < params_.size() ? params_[i].name : kNone;
    }
    bool paramKeywordOnly(size_t i) const { return i < params_.size() && params_[i].kwOnly; }
    // Moves a positional argument for parameter `param` into the keywords, so that the positional
    // and keyword forms of one call are the same call (`F.relu(x, True)` is `F.relu(x, inplace=True)`).
    // Returns false when the parameter is absent or was not passed positionally.
    bool keywordize(CallArgs& a, const std::string& param) const;

private:
    struct P { std::string name; bool optional = false; bool kwOnly = false; bool varargs = false; };
    std::string fname_;
    std::vector<P> params_;
};

// Conversions with CPython-style TypeErrors.
int64_t toInt(Interp& in, const Value& v, const char* what);
double toFloat(Interp& in, const Value& v, const char* what);
const std::string& toStr(Interp& in, const Value& v, const char* what);

} // namespace fl::script
