// torch.X and Tensor.X for every ATen operator the hand-written table (torch_ops.cpp) does not
// bind: looked up by name in LibTorch's dispatcher the first time a script asks, bound from the
// operator's schema (positional and keyword arguments, defaults, overloads, out=) and called
// boxed. So the API keeps up with the LibTorch Fuselab is built against.
//
// Capture: an operator that neither mutates nor aliases its arguments, draws no random numbers and
// has a data-independent output shape is recorded as a graph node (the backend runs it as a
// library call unless it has a lowering). Any other operator breaks the graph and runs eagerly:
// capture does not model its effects, and a wrong answer is worse than a break.
#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>

#include <map>
#include <set>
#include <mutex>

#include "core/script/api_names.h"
#include "core/script/builtins.h"
#include "core/script/hooks.h"
#include "core/script/tensor_obj.h"
#include "core/script/torch_dispatch.h"

namespace fl::script {

namespace {

using c10::Argument;
using c10::FunctionSchema;
using c10::IValue;
using c10::TypeKind;

struct Overload {
    c10::OperatorHandle op;
    bool hasOut = false;    // an out= variant
    bool effects = false;   // mutates or aliases an argument, random, or a data-dependent shape
};

// aten::NAME -> its overloads, in the registry's order with out= variants last.
const std::map<std::string, std::vector<Overload>>& registryIndex() {
    static std::map<std::string, std::vector<Overload>> index;
    static std::once_flag once;
    std::call_once(once, [] {
        auto& d = c10::Dispatcher::singleton();
        for (const c10::OperatorName& name : d.getAllOpNames()) {
            if (name.name.rfind("aten::", 0) != 0) continue;
            auto h = d.findSchema(name);
            if (!h || !h->hasSchema()) continue;
            const FunctionSchema& s = h->schema();
            Overload o{*h};
            for (const Argument& a : s.arguments()) {
                if (a.is_out()) o.hasOut = true;
                if (a.alias_info()) o.effects = true;
            }
            for (const Argument& r : s.returns())
                if (r.alias_info()) o.effects = true;
            if (h->hasTag(at::Tag::nondeterministic_seeded) || h->hasTag(at::Tag::dynamic_output_shape) ||
                h->hasTag(at::Tag::data_dependent_output))
                o.effects = true;
            index[name.name.substr(6)].push_back(o);
        }
        for (auto& [n, list] : index)
            std::stable_sort(list.begin(), list.end(), [](const Overload& a, const Overload& b) { return a.hasOut < b.hasOut; });
    });
    return index;
}

const std::vector<Overload>* overloadsOf(const std::string& name, bool privateToo = false) {
    if (name.empty() || (name[0] == '_' && !privateToo) || name.rfind("__", 0) == 0) return nullptr;
    auto& idx = registryIndex();
    auto it = idx.find(name);
    return it == idx.end() ? nullptr : &it->second;
}

bool firstIsSelf(const FunctionSchema& s) {
    return !s.arguments().empty() && s.arguments()[0].name() == "self" && s.arguments()[0].type()->kind() == TypeKind::TensorType;
}

// ---------------------------------------------------------------- Python value -> IValue
// Returns false when `v` is not acceptable for type `t` (the overload does not match).
bool toIValue(Interp& in, const Value& v, const c10::TypePtr& t, const c10::TypePtr& real, c10::optional<int32_t> n, IValue& out) {
    switch (t->kind()) {
    case TypeKind::OptionalType:
        if (v.isNone()) { out = IValue(); return true; }
        return toIValue(in, v, t->expectRef<c10::OptionalType>().getElementType(),
                        real->kind() == TypeKind::OptionalType ? real->expectRef<c10::OptionalType>().getElementType() : real, n, out);
    case TypeKind::TensorType:
        if (!v.isTensor()) return false;
        out = tensorOf(v);
        return true;
    case TypeKind::IntType:
    case TypeKind::SymIntType:
        if (real->kind() == TypeKind::ScalarTypeType) {
            if (!v.is(OK::Dtype)) return false;
            out = IValue(int64_t(v.as<DtypeObj>()->scalarType));
            return true;
        }
        if (real->kind() == TypeKind::LayoutType || real->kind() == TypeKind::MemoryFormatType) return false; // only None
        if (!v.isInt()) return false;
        out = IValue(v.i());
        return true;
    case TypeKind::FloatType:
        if (!v.isNumber()) return false;
        out = IValue(v.isFloat() ? v.f() : double(v.i()));
        return true;
    case TypeKind::BoolType:
        if (!v.isBool()) return false;
        out = IValue(v.i() != 0);
        return true;
    case TypeKind::NumberType:
        if (v.isBool()) { out = IValue(at::Scalar(v.i() != 0)); return true; }
        if (v.isInt()) { out = IValue(at::Scalar(v.i())); return true; }
        if (v.isFloat()) { out = IValue(at::Scalar(v.f())); return true; }
        if (v.isTensor() && tensorOf(v).dim() == 0 && !tensorOf(v).requires_grad()) { out = IValue(tensorOf(v).item()); return true; }
        return false;
    case TypeKind::StringType:
        if (!v.isStr()) return false;
        out = IValue(strOf(v));
        return true;
    case TypeKind::DeviceObjType:
        if (!v.isStr() && !v.is(OK::Device)) return false;
        checkDevice(in, v);
        out = IValue(c10::Device(c10::kCPU));
        return true;
    case TypeKind::ListType: {
        const c10::TypePtr& elem = t->expectRef<c10::ListType>().getElementType();
        std::vector<Value> items;
        if (v.is(OK::List)) items = v.as<ListObj>()->items;
        else if (v.is(OK::Tuple)) items = v.as<TupleObj>()->items;
        else if (n && v.isInt() && (elem->kind() == TypeKind::IntType || elem->kind() == TypeKind::SymIntType)) {
            out = IValue(std::vector<int64_t>(size_t(*n), v.i())); // int[2] given one int
            return true;
        } else return false;
        switch (elem->kind()) {
        case TypeKind::IntType:
        case TypeKind::SymIntType: {
            std::vector<int64_t> xs;
            for (auto& x : items) {
                if (!x.isInt()) return false;
                xs.push_back(x.i());
            }
            out = IValue(xs);
            return true;
        }
        case TypeKind::FloatType: {
            std::vector<double> xs;
            for (auto& x : items) {
                if (!x.isNumber()) return false;
                xs.push_back(x.isFloat() ? x.f() : double(x.i()));
            }
            out = IValue(xs);
            return true;
        }
        case TypeKind::BoolType: {
            c10::List<bool> xs;
            for (auto& x : items) {
                if (!x.isBool()) return false;
                xs.push_back(x.i() != 0);
            }
            out = IValue(xs);
            return true;
        }
        case TypeKind::TensorType: {
            std::vector<at::Tensor> xs;
            for (auto& x : items) {
                if (!x.isTensor()) return false;
                xs.push_back(tensorOf(x));
            }
            out = IValue(xs);
            return true;
        }
        case TypeKind::OptionalType: {
            if (elem->expectRef<c10::OptionalType>().getElementType()->kind() != TypeKind::TensorType) return false;
            c10::List<c10::optional<at::Tensor>> xs;
            for (auto& x : items) {
                if (x.isNone()) xs.push_back(c10::nullopt);
                else if (x.isTensor()) xs.push_back(tensorOf(x));
                else return false;
            }
            out = IValue(xs);
            return true;
        }
        default: return false;
        }
    }
    case TypeKind::GeneratorType:
        if (!v.is(OK::Opaque) || !toGenerator(in, v)) return false;
        out = IValue(*toGenerator(in, v));
        return true;
    default: return false; // Dimname, Layout, ...: only their None defaults
    }
}

// ---------------------------------------------------------------- IValue -> Python value
Value fromIValue(Interp& in, const IValue& v) {
    if (v.isTensor()) return wrap(v.toTensor());
    if (v.isNone()) return Value();
    if (v.isBool()) return Value::boolean(v.toBool());
    if (v.isInt()) return Value::integer(v.toInt());
    if (v.isDouble()) return Value::real(v.toDouble());
    if (v.isString()) return makeStr(v.toStringRef());
    if (v.isTensorList()) {
        std::vector<Value> xs;
        for (const at::Tensor& t : v.toTensorVector()) xs.push_back(wrap(t));
        return makeList(std::move(xs));
    }
    if (v.isIntList()) {
        std::vector<Value> xs;
        for (int64_t x : v.toIntVector()) xs.push_back(Value::integer(x));
        return makeList(std::move(xs));
    }
    if (v.isDoubleList()) {
        std::vector<Value> xs;
        for (double x : v.toDoubleVector()) xs.push_back(Value::real(x));
        return makeList(std::move(xs));
    }
    if (v.isScalar()) {
        at::Scalar s = v.toScalar();
        if (s.isBoolean()) return Value::boolean(s.toBool());
        if (s.isIntegral(false)) return Value::integer(s.toLong());
        if (s.isFloatingPoint()) return Value::real(s.toDouble());
    }
    in.raise(in.runtimeError, "a result of type " + v.tagKind() + " has no Python form in Fuselab");
}

Value results(Interp& in, const FunctionSchema& s, torch::jit::Stack& stack) {
    if (s.returns().empty()) return Value();
    if (s.returns().size() == 1) return fromIValue(in, stack.at(0));
    std::vector<Value> xs;
    for (auto& v : stack) xs.push_back(fromIValue(in, v));
    Value t = makeTuple(std::move(xs));
    // named results (values, indices) are a torch.return_types structseq, as in PyTorch
    std::vector<std::string> names;
    for (const Argument& r : s.returns())
        if (!r.name().empty()) names.push_back(r.name());
    if (names.size() == s.returns().size()) {
        std::string op = s.name().substr(s.name().find("::") + 2);
        t.as<TupleObj>()->structName = "torch.return_types." + op;
        t.as<TupleObj>()->fieldNames = std::move(names);
    }
    return t;
}

std::string pyTypeName(Interp& in, const Value& v) {
    if (v.isTensor()) return "Tensor";
    return in.typeName(v);
}

std::string schemaText(const FunctionSchema& s, bool method) {
    std::string out = "(";
    bool first = true, star = false;
    for (size_t i = method && firstIsSelf(s) ? 1 : 0; i < s.arguments().size(); ++i) {
        const Argument& a = s.arguments()[i];
        if (!first) out += ", ";
        if (a.kwarg_only() && !star) { out += "*, "; star = true; }
        first = false;
        out += a.real_type()->str() + " " + (a.name() == "self" && !method ? std::string("input") : a.name());
    }
    return out + ")";
}

// Binds Python arguments to one schema; false (and why) when they do not fit it.
bool bind(Interp& in, const FunctionSchema& s, const CallArgs& given, torch::jit::Stack& stack, std::string& why) {
    const auto& args = s.arguments();
    size_t positional = 0;
    for (const Argument& a : args)
        if (!a.kwarg_only()) ++positional;
    // PyTorch's varargs rule: a lone positional list of tensors or ints may be given spread out
    // (torch.block_diag(a, b), x.permute(1, 0))
    const CallArgs* pca = &given;
    CallArgs packed;
    if (positional == 1 && given.pos.size() > 1 && args[0].type()->kind() == TypeKind::ListType) {
        TypeKind ek = args[0].type()->expectRef<c10::ListType>().getElementType()->kind();
        if (ek == TypeKind::TensorType || ek == TypeKind::IntType || ek == TypeKind::SymIntType) {
            packed.pos = {makeTuple(given.pos)};
            packed.kw = given.kw;
            pca = &packed;
        }
    }
    const CallArgs& ca = *pca;
    size_t npos = ca.pos.size();
    if (npos > positional) {
        why = "takes " + std::to_string(positional) + " positional arguments but " + std::to_string(npos) + " were given";
        return false;
    }
    std::vector<bool> used(ca.kw.size(), false);
    for (size_t i = 0; i < args.size(); ++i) {
        const Argument& a = args[i];
        const Value* v = nullptr;
        if (i < npos) v = &ca.pos[i];
        for (size_t k = 0; k < ca.kw.size(); ++k) {
            const std::string& key = ca.kw[k].first;
            if (key == a.name() || (a.name() == "self" && key == "input")) {
                if (v) { why = "got multiple values for argument '" + key + "'"; return false; }
                v = &ca.kw[k].second;
                used[k] = true;
            }
        }
        IValue iv;
        // None for an argument with a default means the default, as PyTorch's binding takes it
        // (avg_pool3d(x, 2, None): stride=None)
        if (v && v->isNone() && a.default_value() && a.type()->kind() != TypeKind::OptionalType) v = nullptr;
        if (!v) {
            if (a.default_value()) iv = *a.default_value();
            else { why = "missing required argument '" + a.name() + "'"; return false; }
        } else if (!toIValue(in, *v, a.type(), a.real_type(), a.N(), iv)) {
            why = "argument '" + a.name() + "'" + (i < npos ? " (position " + std::to_string(i + 1) + ")" : std::string()) + " must be " +
                  a.real_type()->str() + ", not " + pyTypeName(in, *v);
            return false;
        }
        stack.push_back(std::move(iv));
    }
    for (size_t k = 0; k < ca.kw.size(); ++k)
        if (!used[k]) { why = "got an unexpected keyword argument '" + ca.kw[k].first + "'"; return false; }
    return true;
}

// The operators without a Meta kernel: their meta call failed and the real call with the same
// arguments then ran. Each failed meta call costs a LibTorch error with its backtrace (about 3 ms
// in 1.13: convolution_backward, on every call of a compiled backward), so it is not tried again.
std::mutex noMetaMutex;
std::set<std::pair<std::string, std::string>> noMetaKernel; // (name, overload)

// The bytes an op's results would take, from its Meta kernel; -1 when it has none. `metaFailed`:
// the meta call was tried and failed.
int64_t resultBytes(const c10::OperatorHandle& op, const torch::jit::Stack& stack, bool& metaFailed) {
    bool tryMeta;
    {
        std::lock_guard<std::mutex> lk(noMetaMutex);
        tryMeta = !noMetaKernel.count({op.operator_name().name, op.operator_name().overload_name});
    }
    torch::jit::Stack meta;
    const auto& args = op.schema().arguments();
    for (size_t i = 0; i < stack.size(); ++i) {
        const IValue& v = stack[i];
        c10::TypePtr t = i < args.size() ? args[i].type() : nullptr;
        if (t && t->kind() == TypeKind::OptionalType) t = t->expectRef<c10::OptionalType>().getElementType();
        if (t && t->kind() == TypeKind::DeviceObjType) meta.push_back(IValue(c10::Device(c10::kMeta))); // factories: made on meta
        else if (v.isTensor() && v.toTensor().defined()) meta.push_back(v.toTensor().to(at::kMeta));
        else if (v.isTensorList()) {
            std::vector<at::Tensor> xs;
            for (const at::Tensor& t : v.toTensorVector()) xs.push_back(t.to(at::kMeta));
            meta.push_back(IValue(xs));
        } else meta.push_back(v);
    }
    try {
        if (!tryMeta) throw std::exception();
        op.callBoxed(meta);
    } catch (...) {
        metaFailed = tryMeta;
        // No Meta kernel. A factory (no tensor argument) is bounded by its integer arguments,
        // which are its sizes (tril_indices(n, m), hann_window(n)); any other op runs unchecked.
        int64_t bound = 8;
        for (const IValue& v : stack) {
            if (v.isTensor() || v.isTensorList()) return -1;
            auto mul = [&](int64_t x) {
                x = x < 0 ? -x : x;
                if (x > 1) bound = bound > INT64_MAX / x ? INT64_MAX : bound * x;
            };
            if (v.isInt()) mul(v.toInt());
            if (v.isIntList())
                for (int64_t x : v.toIntVector()) mul(x);
        }
        return bound;
    }
    int64_t bytes = 0;
    for (const IValue& v : meta)
        if (v.isTensor()) bytes += int64_t(v.toTensor().numel()) * int64_t(v.toTensor().element_size());
    return bytes;
}

struct Resolved {
    const Overload* overload = nullptr;
    torch::jit::Stack stack;
};

// PyTorch's rule: the first overload, in order, that the arguments fit; out= variants only when
// out= is given.
Resolved resolve(Interp& in, const std::string& qual, const std::vector<Overload>& overloads, const CallArgs& ca, bool method) {
    bool wantOut = false;
    for (auto& [k, v] : ca.kw) wantOut = wantOut || k == "out";
    std::vector<std::string> tried;
    std::string lastWhy;
    for (const Overload& o : overloads) {
        if (o.hasOut != wantOut) continue;
        const FunctionSchema& s = o.op.schema();
        if (method && !firstIsSelf(s)) continue;
        Resolved r;
        r.overload = &o;
        if (bind(in, s, ca, r.stack, lastWhy)) return r;
        tried.push_back(schemaText(s, method));
    }
    std::string got;
    for (size_t i = method ? 1 : 0; i < ca.pos.size(); ++i) got += (got.empty() ? "" : ", ") + pyTypeName(in, ca.pos[i]);
    for (auto& [k, v] : ca.kw) got += (got.empty() ? "" : ", ") + k + "=" + pyTypeName(in, v);
    if (tried.size() == 1) in.raiseType(qual + "(): " + lastWhy);
    std::string msg = qual + "() received an invalid combination of arguments - got (" + got + "), but expected one of:";
    for (auto& t : tried) msg += "\n * " + t;
    if (tried.empty()) msg = qual + "() has no form that takes these arguments (" + got + ")";
    in.raiseType(msg);
}

Value call(Interp& in, const std::string& qual, const std::vector<Overload>& overloads, CallArgs& ca, bool method) {
    Resolved r = resolve(in, qual, overloads, ca, method);
    const FunctionSchema& s = r.overload->op.schema();
    return guarded(in, [&] {
        bool metaFailed = false;
        int64_t bytes = resultBytes(r.overload->op, r.stack, metaFailed);
        if (bytes > in.options().maxAllocBytes)
            in.raise(in.runtimeError, "DefaultCPUAllocator: can't allocate memory: you tried to allocate " + std::to_string(bytes) +
                                          " bytes, over the model-script limit of " + std::to_string(in.options().maxAllocBytes) + " bytes");
        r.overload->op.callBoxed(r.stack);
        if (metaFailed) { // the arguments were good: it is the kernel that is missing
            std::lock_guard<std::mutex> lk(noMetaMutex);
            noMetaKernel.insert({r.overload->op.operator_name().name, r.overload->op.operator_name().overload_name});
        }
        Value out = results(in, s, r.stack);
        // an in-place or out= op returns its argument: the same Python object, as in PyTorch
        if (s.returns().size() == 1 && s.returns()[0].alias_info() && s.returns()[0].alias_info()->isWrite()) {
            for (size_t i = 0; i < s.arguments().size(); ++i) {
                const Argument& a = s.arguments()[i];
                if (!a.alias_info() || !a.alias_info()->isWrite()) continue;
                const Value* src = i < ca.pos.size() ? &ca.pos[i] : nullptr;
                for (auto& [k, v] : ca.kw)
                    if (k == a.name()) src = &v;
                if (src && src->isTensor()) return *src;
            }
        }
        return out;
    });
}

Value callTraced(Interp& in, const std::string& target, const std::vector<Overload>& overloads, CallArgs& ca, bool method) {
    const std::string qual = target.substr(target.rfind('.') + 1);
    OpInvoke run = [qual, &overloads, method](Interp& in, CallArgs& a) { return call(in, qual, overloads, a, method); };
    if (!in.tracer) return run(in, ca);
    Resolved r = resolve(in, qual, overloads, ca, method);
    if (r.overload->effects) {
        maybeBreak(in, "aten_op", target);
        return run(in, ca);
    }
    return traceOp(in, target, ca, run);
}

} // namespace

// Registry operators a script may not call, and why: file access, or a LibTorch 1.13 kernel that
// kills the process on some inputs instead of raising (found by sweeping every operator with odd
// arguments: native_channel_shuffle(x, 0) divides by zero).
static const char* refusedOp(const std::string& name) {
    if (name == "from_file") return "model scripts cannot read files";
    if (name == "native_channel_shuffle")
        return "LibTorch 1.13 stops the process on some of its inputs (groups=0); use torch.channel_shuffle, which checks them";
    return nullptr;
}

void warmRegistryIndex() { registryIndex(); }

bool dispatchTorchAttr(Interp& in, const std::string& name, Value& out) {
    // only the names torch's own namespace has (aten::special_entr is torch.special.entr)
    if (!torchApiHas("torch", name)) return false;
    if (const char* why = refusedOp(name)) {
        std::string msg = "torch." + name + " is not available in Fuselab: " + why;
        out = in.makeBuiltin(name, [msg](Interp& in, const Value&, CallArgs&) -> Value { in.raise(in.runtimeError, msg); });
        return true;
    }
    const std::vector<Overload>* ov = overloadsOf(name);
    if (!ov) return false;
    bool function = false;
    for (const Overload& o : *ov) function = function || !o.hasOut;
    if (!function) return false;
    const std::vector<Overload>& overloads = *ov; // the index lives as long as the process
    std::string target = "torch." + name;
    out = in.makeBuiltin(name, [&overloads, target](Interp& in, const Value&, CallArgs& ca) {
        return callTraced(in, target, overloads, ca, /*method=*/false);
    });
    return true;
}

bool dispatchPrefixedAttr(Interp& in, const std::string& ns, const std::string& prefix, const std::string& name, Value& out) {
    if (name.empty() || name[0] == '_') return false;
    const std::vector<Overload>* ov = overloadsOf(prefix + name);
    if (!ov) return false;
    const std::vector<Overload>& overloads = *ov;
    std::string target = ns + "." + name;
    out = in.makeBuiltin(name, [&overloads, target](Interp& in, const Value&, CallArgs& ca) {
        return callTraced(in, target, overloads, ca, /*method=*/false);
    });
    return true;
}

bool dispatchNnAttr(Interp& in, const std::string& name, Value& out) {
    if (refusedOp(name)) return false;
    const std::vector<Overload>* ov = overloadsOf(name, /*privateToo=*/true);
    if (!ov) return false;
    const std::vector<Overload>& overloads = *ov;
    std::string target = "torch._C._nn." + name;
    out = in.makeBuiltin(name, [&overloads, target](Interp& in, const Value&, CallArgs& ca) {
        return callTraced(in, target, overloads, ca, /*method=*/false);
    });
    return true;
}

bool dispatchTensorAttr(Interp& in, const Value& self, const std::string& name, Value& out) {
    if (!torchApiHas("torch.Tensor", name)) return false;
    const std::vector<Overload>* ov = overloadsOf(name);
    if (!ov) return false;
    bool method = false;
    for (const Overload& o : *ov) method = method || (!o.hasOut && firstIsSelf(o.op.schema()));
    if (!method) return false;
    const std::vector<Overload>& overloads = *ov;
    std::string target = "Tensor." + name;
    auto b = std::make_shared<BuiltinObj>();
    b->name = name;
    b->self = self; // Missing: torch.Tensor.NAME, unbound, the tensor comes first
    b->fn = [&overloads, target, name](Interp& in, const Value& self, CallArgs& ca) {
        if (!self.isMissing()) ca.pos.insert(ca.pos.begin(), self);
        else if (ca.pos.empty() || !ca.pos[0].isTensor())
            in.raiseType("descriptor '" + name + "' for 'torch._C._TensorBase' objects needs an argument");
        return callTraced(in, target, overloads, ca, /*method=*/true);
    };
    out = Value(b);
    return true;
}

} // namespace fl::script
