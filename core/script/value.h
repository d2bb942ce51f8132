// Python values for the model-script interpreter. Immediate ints, floats, bools and None live in
// the Value itself; everything else is a reference-counted object. Tensors are opaque here:
// their object type is defined in tensor_obj.h, which only the torch bindings include.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/script/ast.h"
#include "core/script/bigint.h"

namespace fl::script {

class Interp;

enum class OK : uint8_t {
    Str, List, Tuple, Dict, Set, Function, Builtin, BoundMethod, Class, Instance, Module, Tensor,
    Dtype, Device, Slice, Range, Iterator, Ellipsis, Opaque, BigInt,
};

struct Obj : std::enable_shared_from_this<Obj> {
    const OK kind;
    explicit Obj(OK k) : kind(k) {}
    virtual ~Obj() = default;
};
using ObjP = std::shared_ptr<Obj>;

class Value {
public:
    enum class T : uint8_t { None, Bool, Int, Float, Obj, Missing };

    Value() : t_(T::None) { u_.i = 0; }
    Value(ObjP o) : t_(T::Obj), o_(std::move(o)) { u_.i = 0; } // NOLINT: implicit on purpose
    static Value none() { return Value(); }
    static Value missing() { Value v; v.t_ = T::Missing; return v; }
    static Value boolean(bool b) { Value v; v.t_ = T::Bool; v.u_.i = b ? 1 : 0; return v; }
    static Value integer(int64_t i) { Value v; v.t_ = T::Int; v.u_.i = i; return v; }
    static Value real(double f) { Value v; v.t_ = T::Float; v.u_.f = f; return v; }

    T type() const { return t_; }
    bool isNone() const { return t_ == T::None; }
    bool isMissing() const { return t_ == T::Missing; }
    bool isBool() const { return t_ == T::Bool; }
    bool isInt() const { return t_ == T::Int; }       // not bool
    bool isFloat() const { return t_ == T::Float; }
    bool isIntLike() const { return t_ == T::Int || t_ == T::Bool; }
    bool isNumber() const { return t_ == T::Int || t_ == T::Bool || t_ == T::Float; }
    bool isObj() const { return t_ == T::Obj; }
    bool is(OK k) const { return t_ == T::Obj && o_->kind == k; }
    bool isStr() const { return is(OK::Str); }
    bool isTensor() const { return is(OK::Tensor); }

    bool b() const { return u_.i != 0; }
    int64_t i() const { return u_.i; }          // Int or Bool
    double f() const { return u_.f; }
    double num() const { return t_ == T::Float ? u_.f : double(u_.i); }
    Obj* obj() const { return o_.get(); }
    const ObjP& objp() const { return o_; }
    template <class X> X* as() const { return static_cast<X*>(o_.get()); }

private:
    T t_;
    union { int64_t i; double f; } u_;
    ObjP o_;
};

// ---------------------------------------------------------------- hashing and an ordered map
struct UnhashableError { std::string typeName; }; // becomes TypeError("unhashable type: ...")
struct NestingTooDeep {};          // hashing or comparing keys nested past 10,000 levels
// hash(v) as CPython computes it for numbers (modulo 2**61 - 1, so equal numbers hash equal) and
// tuples of them; strings and objects hash deterministically within a run, not as CPython does.
// Instances of script classes use their class's __hash__ (None: unhashable). Throws
// UnhashableError, NestingTooDeep, and whatever a script's __hash__ raises.
int64_t pyHash(const Value& v);
inline size_t hashValue(const Value& v) { return size_t(pyHash(v)); }
// Dict-key equality: identity, then value; instances of script classes with __eq__ compare through it.
bool keyEquals(const Value& a, const Value& b);
// The interpreter that runs script __hash__ / __eq__ for keys on this thread (none: keys that are
// instances hash and compare by identity). Interp sets itself for its lifetime.
void setKeyInterp(Interp* in);
Interp* keyInterp();

class ValueMap { // insertion-ordered, like Python's dict
public:
    struct Entry { Value key, val; bool live = true; size_t hash = 0; };
    Value* find(const Value& key);
    const Value* find(const Value& key) const { return const_cast<ValueMap*>(this)->find(key); }
    void set(const Value& key, Value val);
    bool erase(const Value& key);
    void clear() { entries_.clear(); index_.clear(); live_ = 0; ++version_; ++compactions_; }
    size_t size() const { return live_; }
    // Iterate live entries: for (auto& e : m.entries()) if (e.live) ...
    const std::vector<Entry>& entries() const { return entries_; }
    std::vector<Entry>& entries() { return entries_; }
    size_t version() const { return version_; } // changes on insert/erase: detects mutation during iteration

private:
    static constexpr size_t kAbsent = ~size_t(0);
    size_t indexOf(const Value& key, size_t hash); // kAbsent when not there
    void compact();
    std::vector<Entry> entries_;
    std::unordered_multimap<size_t, size_t> index_;
    size_t live_ = 0, version_ = 0;
    size_t compactions_ = 0; // entries renumbered (compact, clear): lookups holding indices start again
};

// ---------------------------------------------------------------- objects
// Freeing a deeply nested container must not recurse once per level (a list nested a million
// times would overflow the stack). Containers hand their children to a per-thread queue that the
// outermost destructor drains iteratively, like CPython's trashcan.
void releaseChildren(std::vector<Value>& items);

struct StrObj : Obj { std::string s; explicit StrObj(std::string v) : Obj(OK::Str), s(std::move(v)) {} };
struct ListObj : Obj {
    std::vector<Value> items;
    const char* viewName = nullptr; // dict views print as dict_keys([...])
    ListObj() : Obj(OK::List) {}
    ~ListObj() override { releaseChildren(items); }
};
struct TupleObj : Obj {
    std::vector<Value> items;
    bool isSize = false; // torch.Size
    std::string structName;             // named tuples: torch.return_types.max(values=..., indices=...)
    std::vector<std::string> fieldNames;
    TupleObj() : Obj(OK::Tuple) {}
    ~TupleObj() override { releaseChildren(items); }
};
struct DictObj : Obj {
    ValueMap map;
    bool orderedRepr = false; // prints as OrderedDict([...]) (state_dict)
    std::weak_ptr<Obj> attrOwner; // an instance's __dict__: changes go back to its attributes
    DictObj() : Obj(OK::Dict) {}
    ~DictObj() override;
};
struct SetObj : Obj { ValueMap map; SetObj() : Obj(OK::Set) {} };
// An int past 64 bits (Python ints are unbounded). Never holds a value that fits in int64.
struct BigIntObj : Obj { BigInt v; explicit BigIntObj(BigInt x) : Obj(OK::BigInt), v(std::move(x)) {} };
inline Value makeInt(const BigInt& b) {
    int64_t small;
    if (b.toInt64(small)) return Value::integer(small);
    return Value(std::make_shared<BigIntObj>(b));
}
inline bool isBigInt(const Value& v) { return v.is(OK::BigInt); }
inline BigInt toBig(const Value& v) { return v.is(OK::BigInt) ? v.as<BigIntObj>()->v : BigInt::fromInt(v.i()); }
// An int used as a slice bound or step, as CPython reads it (_PyEval_SliceIndex): past 64 bits
// it clamps to the int64 range, so `x[:10**30]` is `x[:]` (PyTorch unpacks slices the same way).
inline int64_t clampedSliceInt(const Value& v) {
    if (v.is(OK::BigInt)) return v.as<BigIntObj>()->v.negative() ? INT64_MIN : INT64_MAX;
    return v.i();
}

struct SliceObj : Obj { Value start, stop, step; SliceObj() : Obj(OK::Slice) {} };
struct RangeObj : Obj { int64_t start = 0, stop = 0, step = 1; RangeObj() : Obj(OK::Range) {} };
struct EllipsisObj : Obj { EllipsisObj() : Obj(OK::Ellipsis) {} };

struct IteratorObj : Obj {
    std::function<bool(Value&)> next; // false when exhausted
    std::string typeName = "iterator";
    Value returned; // a finished generator's return value (StopIteration.value)
    IteratorObj() : Obj(OK::Iterator) {}
};

struct Scope;
using ScopeP = std::shared_ptr<Scope>;
struct ClassObj;
using ClassP = std::shared_ptr<ClassObj>;

struct FunctionObj : Obj {
    const FunctionDefStmt* def = nullptr; // or
    const LambdaExpr* lambda = nullptr;
    std::shared_ptr<Module> ast;          // keeps def/lambda alive
    ScopeP closure;                       // enclosing function scope (or module scope)
    ScopeP globals;
    std::vector<Value> defaults;          // for the last defaults.size() positional params
    std::vector<Value> kwDefaults;        // Missing = required keyword-only
    std::string name, qualname;
    std::weak_ptr<ClassObj> owner;        // class whose body defined it (zero-argument super)
    std::unordered_map<std::string, Value> attrs; // function attributes (decorators set these)
    const Arguments& args() const { return def ? def->args : lambda->args; }
    FunctionObj() : Obj(OK::Function) {}
};

struct CallArgs {
    std::vector<Value> pos;
    std::vector<std::pair<std::string, Value>> kw;
};
using NativeFn = std::function<Value(Interp&, const Value& self, CallArgs&)>;

struct BuiltinObj : Obj {
    std::string name;
    NativeFn fn;
    Value self; // bound receiver, or Missing
    BuiltinObj() : Obj(OK::Builtin) {}
};

struct BoundMethodObj : Obj {
    Value self, func;
    BoundMethodObj() : Obj(OK::BoundMethod) {}
};

// CPython's Py_TPFLAGS_SEQUENCE and Py_TPFLAGS_MAPPING, the values `__abc_tpflags__` holds.
constexpr uint8_t kSequenceFlag = 1 << 5, kMappingFlag = 1 << 6;

struct ClassObj : Obj {
    std::string name;
    std::string module = "builtins";
    ClassP base;                                  // the first base; null for object
    std::vector<ClassP> bases;                    // all bases of a script class, in order
    std::vector<ClassObj*> mro;                   // C3 order, itself first (empty: the base chain)
    std::unordered_map<std::string, Value> attrs; // class namespace
    OK instanceKind = OK::Instance;               // builtin types: the object kind they describe
    bool isBuiltinType = false;
    bool final_ = false;                          // cannot be subclassed from scripts
    std::function<Value(Interp&, CallArgs&)> ctor; // builtin types: what calling the type does
    int tensorDtype = -1; // torch.FloatTensor and the other legacy tensor types: their c10::ScalarType
    // builtin types: attributes looked up on first use (torch.Tensor's operators from LibTorch)
    std::function<bool(Interp&, const std::string&, Value&)> lazyAttr;
    ClassP meta;                        // a script metaclass (a subclass of type); null: type itself
    // kSequenceFlag / kMappingFlag, from a class body's `__abc_tpflags__` (how collections.abc
    // marks its classes in CPython): which `match` patterns instances of script classes take
    uint8_t collectionFlags = 0;
    std::vector<std::string> attrOrder; // the class body's names in the order it first set them
    ClassObj() : Obj(OK::Class) {}
    const Value* lookup(const std::string& n) const; // walks the MRO
    // the first class after `after` in this class's MRO that has `n` (super())
    const Value* lookupAfter(const ClassObj* after, const std::string& n) const;
    std::vector<const ClassObj*> order() const;   // the MRO (the base chain where none was computed)
    bool isSubclassOf(const ClassObj* other) const;
};

// An instance's attributes in the order they were first set (as Python's __dict__ keeps them),
// found by name in constant time; references to values stay valid until their entry is erased.
class AttrMap {
public:
    using Items = std::list<std::pair<std::string, Value>>;
    using iterator = Items::iterator;
    using const_iterator = Items::const_iterator;
    Value& operator[](const std::string& k) {
        auto it = index_.find(k);
        if (it != index_.end()) return it->second->second;
        items_.emplace_back(k, Value());
        auto last = std::prev(items_.end());
        index_.emplace(std::string_view(last->first), last);
        return last->second;
    }
    iterator find(const std::string& k) {
        auto it = index_.find(k);
        return it == index_.end() ? items_.end() : it->second;
    }
    const_iterator find(const std::string& k) const {
        auto it = index_.find(k);
        return it == index_.end() ? items_.end() : const_iterator(it->second);
    }
    size_t count(const std::string& k) const { return index_.count(k); }
    size_t erase(const std::string& k) {
        auto it = index_.find(k);
        if (it == index_.end()) return 0;
        auto item = it->second;
        index_.erase(it);
        items_.erase(item);
        return 1;
    }
    void clear() { index_.clear(); items_.clear(); }
    iterator begin() { return items_.begin(); }
    iterator end() { return items_.end(); }
    const_iterator begin() const { return items_.begin(); }
    const_iterator end() const { return items_.end(); }
    size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }

private:
    Items items_;
    std::unordered_map<std::string_view, iterator> index_; // keys point into items_
};

struct InstanceObj : Obj {
    ClassP cls;
    AttrMap attrs;
    std::weak_ptr<DictObj> dictView; // its __dict__ while a script holds it: kept in step
    InstanceObj() : Obj(OK::Instance) {}
};

struct ModuleObj : Obj {
    std::string name;
    ScopeP ns;
    // Names looked up on first use (torch's operators from LibTorch's registry); the result is kept in ns.
    std::function<bool(Interp&, const std::string&, Value&)> lazyAttr;
    bool scriptWritable = false; // settings scripts may assign (torch.backends.cudnn.benchmark = True)
    ModuleObj() : Obj(OK::Module) {}
};

struct DtypeObj : Obj {
    int scalarType = 0;  // c10::ScalarType
    std::string name;    // "float32"
    bool isFloating = false, isComplex = false, isSigned = true;
    int itemsize = 4;
    DtypeObj() : Obj(OK::Dtype) {}
};

struct DeviceObj : Obj {
    std::string type = "cpu";
    int index = -1;
    DeviceObj() : Obj(OK::Device) {}
};

// Opaque native objects (context managers such as torch.no_grad(), generators of the RNG, ...)
struct OpaqueObj : Obj {
    ClassP cls;
    std::unordered_map<std::string, Value> attrs;
    std::shared_ptr<void> state;
    std::function<bool(Interp&, const std::string&, Value&)> getattrHook; // tried first (super objects)
    OpaqueObj() : Obj(OK::Opaque) {}
};

// ---------------------------------------------------------------- scopes
struct FuncInfo; // static facts about a function body: its locals, globals, nonlocals
struct Scope : std::enable_shared_from_this<Scope> {
    enum Kind : uint8_t { ModuleScope, FunctionScope, ClassScope, CompScope };
    Kind kind = ModuleScope;
    std::unordered_map<std::string, Value> vars;
    std::vector<std::string> order; // class scopes: names in the order they were first set
    ScopeP parent;                 // lexically enclosing scope (never a class scope for functions)
    const FuncInfo* info = nullptr;
    ScopeP globals;                // module scope (self for a module scope is null: use this)
};

// ---------------------------------------------------------------- helpers
inline Value makeStr(std::string s) { return Value(std::make_shared<StrObj>(std::move(s))); }
inline Value makeList(std::vector<Value> v = {}) { auto l = std::make_shared<ListObj>(); l->items = std::move(v); return Value(l); }
inline Value makeTuple(std::vector<Value> v = {}) { auto t = std::make_shared<TupleObj>(); t->items = std::move(v); return Value(t); }
inline Value makeDict() { return Value(std::make_shared<DictObj>()); }
const std::string& strOf(const Value& v); // precondition: isStr()

} // namespace fl::script
