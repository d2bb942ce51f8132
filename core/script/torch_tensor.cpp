// Tensors in the interpreter: conversions, Python operators, indexing, attributes, and the one
// table of tensor ops exposed as both torch.NAME and tensor.NAME.
#include <ATen/ATen.h>
#include <ATen/TensorIndexing.h>
#include <c10/core/GradMode.h>
#include <c10/util/Exception.h>

#include <cmath>

#include "core/script/hooks.h"
#include "core/script/builtins.h"
#include "core/script/pyformat.h"
#include "core/script/tensor_obj.h"
#include "core/script/tensor_repr.h"
#include "core/script/torch_api.h"

namespace fl::script {

// ---------------------------------------------------------------- errors
namespace {
std::string cleanTorchMessage(std::string m) {
    // LibTorch messages may name C++ types; say them the way PyTorch's Python layer does.
    auto replaceAll = [&](const std::string& from, const std::string& to) {
        for (size_t p = m.find(from); p != std::string::npos; p = m.find(from, p + to.size())) m.replace(p, from.size(), to);
    };
    // "[enforce fail at alloc_cpu.cpp:75] err == 0. " names our internals, not the user's problem
    if (m.rfind("[enforce fail at ", 0) == 0) {
        size_t close = m.find("] ");
        if (close != std::string::npos) {
            m = m.substr(close + 2);
            size_t dot = m.find(". ");
            if (dot != std::string::npos && dot < 40) m = m.substr(dot + 2);
        }
    }
    // the legacy tensor types PyTorch registers (torch.FloatTensor, ...) by their Python names;
    // the others (CPUBoolType, CPUBFloat16Type, CPUComplexFloatType) keep LibTorch's as PyTorch does
    for (const char* t : {"Float", "Double", "Half", "Byte", "Char", "Short", "Int", "Long"})
        replaceAll(std::string("CPU") + t + "Type", std::string("torch.") + t + "Tensor");
    replaceAll("c10::optional", "Optional");
    replaceAll("at::Tensor", "Tensor");
    replaceAll("c10::", "");
    replaceAll("at::", "");
    replaceAll("std::", "");
    while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
    return m;
}
} // namespace

void rethrowTorchError(Interp& in) {
    try {
        throw;
    } catch (const c10::IndexError& e) {
        in.raise(in.indexError, cleanTorchMessage(e.what_without_backtrace()));
    } catch (const c10::ValueError& e) {
        in.raise(in.valueError, cleanTorchMessage(e.what_without_backtrace()));
    } catch (const c10::TypeError& e) {
        in.raise(in.typeError, cleanTorchMessage(e.what_without_backtrace()));
    } catch (const c10::LinAlgError& e) {
        auto cls = in.registry.find("torch.linalg.LinAlgError");
        if (cls == in.registry.end()) in.raise(in.runtimeError, cleanTorchMessage(e.what_without_backtrace()));
        in.raise(std::static_pointer_cast<ClassObj>(cls->second.objp()), cleanTorchMessage(e.what_without_backtrace()));
    } catch (const c10::NotImplementedError& e) {
        in.raise(in.notImplementedError, cleanTorchMessage(e.what_without_backtrace()));
    } catch (const c10::Error& e) {
        in.raise(in.runtimeError, cleanTorchMessage(e.what_without_backtrace()));
    } catch (const std::bad_alloc&) {
        in.raise(in.memoryError, "out of memory");
    } catch (const UnhashableError& u) {
        in.raiseType("unhashable type: '" + u.typeName + "'");
    } catch (const std::exception& e) {
        in.raise(in.runtimeError, cleanTorchMessage(e.what()));
    }
}

// ---------------------------------------------------------------- conversions
// A Python int past 64 bits is a number too: PyTorch takes it and fails to unpack it (below).
bool isScalarLike(const Value& v) { return v.isNumber() || isBigInt(v); }

at::Scalar toScalar(Interp& in, const Value& v, const char* what) {
    if (isBigInt(v)) in.raise(in.runtimeError, "Overflow when unpacking long"); // PyTorch's error for x * 10**20
    if (v.isBool()) return at::Scalar(v.b());
    if (v.isInt()) return at::Scalar(v.i());
    if (v.isFloat()) return at::Scalar(v.f());
    if (v.isTensor()) {
        const at::Tensor& t = tensorOf(v);
        if (t.numel() != 1) in.raiseType(std::string(what) + " must be a number, not a tensor with " + std::to_string(t.numel()) + " elements");
        return guarded(in, [&] { return t.item(); });
    }
    in.raiseType(std::string(what) + " must be a number, not " + in.typeName(v));
}

at::Tensor wrapScalar(const at::Scalar& s) {
    at::Tensor t = c10::scalar_to_tensor(s);
    t.unsafeGetTensorImpl()->set_wrapped_number(true);
    return t;
}

namespace {
// torch.tensor(data): nested lists of numbers (or one-element tensors) to a tensor.
struct Flat {
    std::vector<double> f;
    std::vector<int64_t> i;
    std::vector<int64_t> shape;
    bool anyFloat = false, allBool = true, any = false;
};

void flatten(Interp& in, const Value& v, size_t depth, Flat& out) {
    if (v.is(OK::List) || v.is(OK::Tuple)) {
        const auto& items = v.is(OK::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items;
        if (depth == out.shape.size()) out.shape.push_back(int64_t(items.size()));
        else if (depth > out.shape.size() || out.shape[depth] != int64_t(items.size()))
            in.raiseValue("expected sequence of length " + std::to_string(depth < out.shape.size() ? out.shape[depth] : 0) + " at dim " + std::to_string(depth) + " (got " + std::to_string(items.size()) + ")");
        for (auto& x : items) flatten(in, x, depth + 1, out);
        return;
    }
    if (depth != out.shape.size()) in.raiseValue("expected sequence of length " + std::to_string(out.shape[depth]) + " at dim " + std::to_string(depth) + " (got 0)");
    Value s = v;
    if (v.isTensor()) {
        const at::Tensor& t = tensorOf(v);
        if (t.numel() != 1) in.raiseValue("only one element tensors can be converted to Python scalars");
        s = scalarToValue(t);
    }
    if (!s.isNumber()) in.raiseType("new(): invalid data type '" + in.typeName(s) + "'");
    out.any = true;
    if (!s.isBool()) out.allBool = false;
    if (s.isFloat()) out.anyFloat = true;
    out.f.push_back(s.num());
    out.i.push_back(s.isFloat() ? 0 : s.i());
    if ((out.f.size() & 0xffff) == 0) in.checkAlloc(int64_t(out.f.size()) * 16, "tensor data");
}
} // namespace

at::Tensor tensorFromData(Interp& in, const Value& data, std::optional<at::ScalarType> dtype) {
    if (data.isTensor()) {
        at::Tensor t = tensorOf(data).detach().clone();
        return dtype ? t.to(*dtype) : t;
    }
    Flat f;
    flatten(in, data, 0, f);
    at::ScalarType inferred = f.anyFloat ? at::typeMetaToScalarType(at::get_default_dtype())
                              : (f.any && f.allBool) ? at::kBool
                              : (!f.any && !data.isNumber()) ? at::typeMetaToScalarType(at::get_default_dtype())
                              : at::kLong;
    at::ScalarType st = dtype.value_or(inferred);
    at::Tensor t;
    if (f.anyFloat || !f.any) t = at::tensor(f.f, at::TensorOptions().dtype(at::kDouble));
    else t = at::tensor(f.i, at::TensorOptions().dtype(at::kLong));
    return t.reshape(f.shape).to(st);
}

at::Tensor toTensor(Interp& in, const Value& v, const char* what) {
    if (v.isTensor()) return tensorOf(v);
    in.raiseType(std::string(what) + " must be Tensor, not " + in.typeName(v));
}

bool toBoolArg(Interp& in, const Value& v, const std::string& fn, const std::string& param) {
    if (!v.isBool()) in.raiseType(fn + "(): argument '" + param + "' must be bool, not " + in.typeName(v));
    return v.b();
}

std::vector<int64_t> toIntList(Interp& in, const Value& v, const char* what) {
    std::vector<int64_t> out;
    if (v.isIntLike()) return {v.i()};
    if (v.is(OK::List) || v.is(OK::Tuple)) {
        for (auto& x : v.is(OK::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items) {
            if (!x.isIntLike() && !(x.isTensor() && tensorOf(x).numel() == 1 && !tensorOf(x).is_floating_point()))
                in.raiseType(std::string(what) + " must be tuple of ints, but found element of type " + in.typeName(x));
            out.push_back(toInt(in, x, what));
        }
        return out;
    }
    if (v.isTensor() && tensorOf(v).dim() == 0 && !tensorOf(v).is_floating_point()) return {toInt(in, v, what)};
    in.raiseType(std::string(what) + " must be tuple of ints, not " + in.typeName(v));
}

std::vector<int64_t> sizeArgs(Interp& in, const Value& varargs, const char* fn, const char* param, bool symInts) {
    const std::string arg = std::string(fn) + "(): argument '" + param + "'", kind = symInts ? "tuple of SymInts" : "tuple of ints";
    auto isSize = [](const Value& x) { return x.isIntLike() || (x.isTensor() && tensorOf(x).numel() == 1 && !tensorOf(x).is_floating_point()); };
    const auto& all = varargs.as<TupleObj>()->items;
    const std::vector<Value>* items = &all;
    if (all.size() == 1 && !all[0].isIntLike()) {
        if (!all[0].is(OK::List) && !all[0].is(OK::Tuple)) {
            if (all[0].isTensor() && isSize(all[0]) && tensorOf(all[0]).dim() == 0) return {toInt(in, all[0], arg.c_str())};
            in.raiseType(arg + " (position 1) must be " + kind + ", not " + in.typeName(all[0]));
        }
        items = all[0].is(OK::List) ? &all[0].as<ListObj>()->items : &all[0].as<TupleObj>()->items;
    }
    std::vector<int64_t> out;
    for (size_t i = 0; i < items->size(); ++i) {
        const Value& x = (*items)[i];
        if (!isSize(x)) in.raiseType(arg + " must be " + kind + ", but found element of type " + in.typeName(x) + " at pos " + std::to_string(i + 1));
        out.push_back(x.isIntLike() ? x.i() : toInt(in, x, arg.c_str()));
    }
    return out;
}

void checkNumel(Interp& in, at::IntArrayRef sizes, at::ScalarType st) {
    int64_t n = 1;
    for (int64_t s : sizes) {
        if (s < 0) return; // ATen reports negative sizes itself
        if (s != 0 && n > INT64_MAX / s) { n = INT64_MAX; break; }
        n *= s;
    }
    int64_t item = int64_t(c10::elementSize(st));
    int64_t bytes = n > INT64_MAX / item ? INT64_MAX : n * item;
    if (bytes > in.options().maxAllocBytes)
        in.raise(in.runtimeError, "DefaultCPUAllocator: can't allocate memory: you tried to allocate " + std::to_string(bytes) +
                                      " bytes, over the model-script limit of " + std::to_string(in.options().maxAllocBytes) + " bytes");
}

Value generatorValue(Interp& in, at::Generator g) {
    auto o = std::make_shared<OpaqueObj>();
    o->cls = in.builtinClass("Generator");
    o->state = std::make_shared<at::Generator>(std::move(g));
    o->attrs["device"] = Value(std::make_shared<DeviceObj>());
    return Value(o);
}

c10::optional<at::Generator> toGenerator(Interp& in, const Value& v) {
    if (v.isNone() || v.isMissing()) return c10::nullopt;
    if (v.is(OK::Opaque) && v.as<OpaqueObj>()->cls == in.builtinClass("Generator") && v.as<OpaqueObj>()->state)
        return *std::static_pointer_cast<at::Generator>(v.as<OpaqueObj>()->state);
    in.raiseType("generator must be a torch.Generator, not " + in.typeName(v));
}

Value scalarToValue(const at::Tensor& t) {
    at::Scalar s = t.item();
    if (t.scalar_type() == at::kBool) return Value::boolean(s.toBool());
    if (at::isIntegralType(t.scalar_type(), false)) return Value::integer(s.toLong());
    return Value::real(s.toDouble());
}

Value tensorToList(Interp& in, const at::Tensor& t) {
    if (t.dim() == 0) return scalarToValue(t);
    in.checkAlloc(t.numel() * 32, "list");
    std::vector<Value> out;
    int64_t n = t.size(0);
    out.reserve(size_t(n));
    at::Tensor c = t.detach();
    for (int64_t i = 0; i < n; ++i) out.push_back(tensorToList(in, c.select(0, i)));
    return makeList(std::move(out));
}

void parseDeviceString(Interp& in, const std::string& s, std::string& type, int& index) {
    static const char* const kTypes[] = {"cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                                         "fpga", "ort", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "privateuseone"};
    size_t colon = s.find(':');
    type = s.substr(0, colon);
    index = -1;
    if (colon != std::string::npos) {
        // a type, then ':' and a non-negative index
        std::string digits = s.substr(colon + 1);
        if (type.empty() || digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
            in.raise(in.runtimeError, "Invalid device string: '" + s + "'");
        if (digits.size() > 9) in.raise(in.runtimeError, "Could not parse device index '" + digits + "' in device string '" + s + "'");
        index = std::atoi(digits.c_str());
    }
    for (const char* t : kTypes)
        if (type == t) return;
    std::string list;
    for (const char* t : kTypes) list += (list.empty() ? "" : ", ") + std::string(t);
    in.raise(in.runtimeError, "Expected one of " + list + " device type at start of device string: " + s);
}

void checkDevice(Interp& in, const Value& v) {
    if (v.isMissing() || v.isNone()) return;
    std::string type;
    int index = -1;
    if (v.isStr()) parseDeviceString(in, strOf(v), type, index);
    else if (v.is(OK::Device)) type = v.as<DeviceObj>()->type;
    else if (v.isInt()) type = "cuda";
    else in.raiseType("device must be a torch.device or a string, not " + in.typeName(v));
    if (type == "cpu") return;
    if (type == "cuda") in.raise(in.assertionError, "Torch not compiled with CUDA enabled");
    in.raise(in.runtimeError, "tensors on the '" + type + "' device are not available in model scripts (only the CPU is)");
}

Value sizeValue(at::IntArrayRef sizes) {
    std::vector<Value> items;
    for (int64_t s : sizes) items.push_back(Value::integer(s));
    Value t = makeTuple(std::move(items));
    t.as<TupleObj>()->isSize = true;
    return t;
}

// ---------------------------------------------------------------- the interpreter's tensor hooks
bool tensorIsParameter(const Value& t) { return t.as<TensorObj>()->isParameter; }

std::string tensorRepr(Interp& in, const Value& v) {
    return guarded(in, [&] { return reprTensor(tensorOf(v), tensorIsParameter(v)); });
}

std::string tensorFormat(Interp& in, const Value& v, const std::string& spec) {
    const at::Tensor& t = tensorOf(v);
    if (t.dim() == 0) return formatValue(in, scalarToValue(t), spec);
    if (!spec.empty()) in.raiseType("unsupported format string passed to Tensor.__format__");
    return tensorRepr(in, v);
}

bool tensorTruth(Interp& in, const Value& v) {
    maybeBreak(in, "data_dependent");
    const at::Tensor& t = tensorOf(v);
    if (t.numel() == 0) in.raise(in.runtimeError, "Boolean value of Tensor with no values is ambiguous");
    if (t.numel() > 1) in.raise(in.runtimeError, "Boolean value of Tensor with more than one value is ambiguous");
    return guarded(in, [&] { return t.item().toBool(); });
}

int64_t tensorLen(Interp& in, const Value& v) {
    if (in.tracer) in.tracer->metadataRead(v);
    const at::Tensor& t = tensorOf(v);
    if (t.dim() == 0) in.raiseType("len() of a 0-d tensor");
    return t.size(0);
}

Value tensorIter(Interp& in, const Value& v) {
    const at::Tensor& t = tensorOf(v);
    if (t.dim() == 0) in.raiseType("iteration over a 0-d tensor");
    if (in.tracer) {
        // iterating a traced tensor: unbind in the graph, then walk the tuple
        CallArgs ca;
        ca.pos = {v};
        Value parts = traceOp(in, "torch.unbind", ca, [](Interp& in, CallArgs& ca) {
            std::vector<Value> out;
            for (auto& p : guarded(in, [&] { return tensorOf(ca.pos[0]).unbind(0); })) out.push_back(wrap(p));
            return makeTuple(std::move(out));
        });
        return in.iter(parts);
    }
    auto parts = std::make_shared<std::vector<at::Tensor>>(guarded(in, [&] { return t.unbind(0); }));
    auto pos = std::make_shared<size_t>(0);
    auto it = std::make_shared<IteratorObj>();
    it->typeName = "tuple_iterator";
    it->next = [parts, pos](Value& out) {
        if (*pos >= parts->size()) return false;
        out = wrap((*parts)[(*pos)++]);
        return true;
    };
    return Value(it);
}

bool tensorContains(Interp& in, const Value& c, const Value& item) {
    const at::Tensor& t = tensorOf(c);
    return guarded(in, [&] {
        at::Tensor eq = item.isTensor() ? at::eq(tensorOf(item), t) : at::eq(t, toScalar(in, item, "element"));
        return eq.any().item().toBool();
    });
}

Value tensorToIndex(Interp& in, const Value& v) {
    maybeBreak(in, "item");
    const at::Tensor& t = tensorOf(v);
    if (t.numel() != 1 || at::isFloatingType(t.scalar_type()))
        in.raiseType("only integer tensors of a single element can be converted to an index");
    return Value::integer(guarded(in, [&] { return t.item().toLong(); }));
}

double tensorToFloat(Interp& in, const Value& v) {
    maybeBreak(in, "item");
    const at::Tensor& t = tensorOf(v);
    if (t.numel() != 1) in.raiseValue("only one element tensors can be converted to Python scalars");
    return guarded(in, [&] { return t.item().toDouble(); });
}

static Value tensorUnaryImpl(Interp& in, const char* op, const Value& v);
Value tensorUnary(Interp& in, const char* op, const Value& v) {
    if (!in.tracer) return tensorUnaryImpl(in, op, v);
    CallArgs ca;
    ca.pos = {v};
    std::string o = op;
    return traceOp(in, "operator." + o, ca, [o](Interp& in, CallArgs& ca) { return tensorUnaryImpl(in, o.c_str(), ca.pos[0]); });
}

static Value tensorUnaryImpl(Interp& in, const char* op, const Value& v) {
    const at::Tensor& t = tensorOf(v);
    std::string o = op;
    return guarded(in, [&] {
        if (o == "neg") {
            if (t.scalar_type() == at::kBool) in.raiseType("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
            return wrap(at::neg(t));
        }
        if (o == "positive") return wrap(at::positive(t));
        if (o == "abs") return wrap(at::abs(t));
        return wrap(at::bitwise_not(t));
    });
}

static Value tensorBinaryImpl(Interp& in, BinOpKind op, const Value& a, const Value& b, bool inplace);
Value tensorBinary(Interp& in, BinOpKind op, const Value& a, const Value& b, bool inplace) {
    if (!in.tracer || (!isScalarLike(a) && !a.isTensor()) || (!isScalarLike(b) && !b.isTensor())) return tensorBinaryImpl(in, op, a, b, inplace);
    std::string target = std::string("operator.") + (inplace && a.isTensor() ? "i" : "") + binOpFunction(op);
    CallArgs ca;
    ca.pos = {a, b};
    return traceOp(in, target, ca, [op, inplace](Interp& in, CallArgs& ca) { return tensorBinaryImpl(in, op, ca.pos[0], ca.pos[1], inplace); });
}

static Value tensorBinaryImpl(Interp& in, BinOpKind op, const Value& a, const Value& b, bool inplace) {
    bool at_ = a.isTensor(), bt = b.isTensor();
    if ((!at_ && !isScalarLike(a)) || (!bt && !isScalarLike(b))) {
        Value m;
        const Value& other = at_ ? b : a;
        if (other.is(OK::Instance)) {
            std::string dn = binOpDunder(op);
            if (at_ && in.tryGetAttr(b, "__r" + dn + "__", m)) return in.call(m, {a});
            if (bt && in.tryGetAttr(a, "__" + dn + "__", m)) return in.call(m, {b});
        }
        static const char* sym[] = {"+", "-", "*", "@", "/", "//", "%", "** or pow()", "<<", ">>", "|", "^", "&"};
        in.raiseType(std::string("unsupported operand type(s) for ") + sym[int(op)] + ": '" + in.typeName(a) + "' and '" + in.typeName(b) + "'");
    }
    return guarded(in, [&]() -> Value {
        if (inplace && at_) {
            at::Tensor& x = tensorOf(a);
            switch (op) {
            case BinOpKind::Add: x.add_(bt ? tensorOf(b) : wrapScalar(toScalar(in, b, "other"))); return a;
            case BinOpKind::Sub: x.sub_(bt ? tensorOf(b) : wrapScalar(toScalar(in, b, "other"))); return a;
            case BinOpKind::Mult: x.mul_(bt ? tensorOf(b) : wrapScalar(toScalar(in, b, "other"))); return a;
            case BinOpKind::Div: x.div_(bt ? tensorOf(b) : wrapScalar(toScalar(in, b, "other"))); return a;
            case BinOpKind::FloorDiv: bt ? x.floor_divide_(tensorOf(b)) : x.floor_divide_(toScalar(in, b, "other")); return a;
            case BinOpKind::Mod: bt ? x.remainder_(tensorOf(b)) : x.remainder_(toScalar(in, b, "other")); return a;
            case BinOpKind::Pow: bt ? x.pow_(tensorOf(b)) : x.pow_(toScalar(in, b, "exponent")); return a;
            case BinOpKind::BitAnd: bt ? x.bitwise_and_(tensorOf(b)) : x.bitwise_and_(toScalar(in, b, "other")); return a;
            case BinOpKind::BitOr: bt ? x.bitwise_or_(tensorOf(b)) : x.bitwise_or_(toScalar(in, b, "other")); return a;
            case BinOpKind::BitXor: bt ? x.bitwise_xor_(tensorOf(b)) : x.bitwise_xor_(toScalar(in, b, "other")); return a;
            default: break; // @=, <<=, >>=: out of place, like torch
            }
        }
        if (at_ && bt) {
            const at::Tensor &x = tensorOf(a), &y = tensorOf(b);
            switch (op) {
            case BinOpKind::Add: return wrap(at::add(x, y));
            case BinOpKind::Sub: return wrap(at::sub(x, y));
            case BinOpKind::Mult: return wrap(at::mul(x, y));
            case BinOpKind::MatMult: return wrap(at::matmul(x, y));
            case BinOpKind::Div: return wrap(at::div(x, y));
            case BinOpKind::FloorDiv: return wrap(at::floor_divide(x, y));
            case BinOpKind::Mod: return wrap(at::remainder(x, y));
            case BinOpKind::Pow: return wrap(at::pow(x, y));
            case BinOpKind::LShift: return wrap(at::bitwise_left_shift(x, y));
            case BinOpKind::RShift: return wrap(at::bitwise_right_shift(x, y));
            case BinOpKind::BitOr: return wrap(at::bitwise_or(x, y));
            case BinOpKind::BitXor: return wrap(at::bitwise_xor(x, y));
            case BinOpKind::BitAnd: return wrap(at::bitwise_and(x, y));
            }
        }
        if (at_) {
            const at::Tensor& x = tensorOf(a);
            at::Scalar s = toScalar(in, b, "other");
            switch (op) {
            case BinOpKind::Add: return wrap(at::add(x, wrapScalar(s)));
            case BinOpKind::Sub: return wrap(at::sub(x, wrapScalar(s)));
            case BinOpKind::Mult: return wrap(at::mul(x, wrapScalar(s)));
            case BinOpKind::MatMult: in.raiseType("unsupported operand type(s) for @: 'Tensor' and '" + in.typeName(b) + "'");
            case BinOpKind::Div: return wrap(at::div(x, wrapScalar(s)));
            case BinOpKind::FloorDiv: return wrap(at::floor_divide(x, s));
            case BinOpKind::Mod: return wrap(at::remainder(x, s));
            case BinOpKind::Pow: return wrap(at::pow(x, s));
            case BinOpKind::LShift: return wrap(at::bitwise_left_shift(x, wrapScalar(s)));
            case BinOpKind::RShift: return wrap(at::bitwise_right_shift(x, wrapScalar(s)));
            case BinOpKind::BitOr: return wrap(at::bitwise_or(x, s));
            case BinOpKind::BitXor: return wrap(at::bitwise_xor(x, s));
            case BinOpKind::BitAnd: return wrap(at::bitwise_and(x, s));
            }
        }
        // scalar OP tensor: the reflected operators of torch.Tensor
        const at::Tensor& y = tensorOf(b);
        at::Scalar s = toScalar(in, a, "other");
        switch (op) {
        case BinOpKind::Add: return wrap(at::add(y, wrapScalar(s)));
        case BinOpKind::Sub: return wrap(at::rsub(y, wrapScalar(s)));
        case BinOpKind::Mult: return wrap(at::mul(y, wrapScalar(s)));
        case BinOpKind::MatMult: in.raiseType("unsupported operand type(s) for @: '" + in.typeName(a) + "' and 'Tensor'");
        case BinOpKind::Div: return wrap(at::mul(at::reciprocal(y), wrapScalar(s)));
        case BinOpKind::FloorDiv: return wrap(at::floor_divide(wrapScalar(s), y));
        case BinOpKind::Mod: return wrap(at::remainder(wrapScalar(s), y));
        case BinOpKind::Pow: return wrap(at::pow(s, y));
        case BinOpKind::LShift: return wrap(at::bitwise_left_shift(wrapScalar(s), y));
        case BinOpKind::RShift: return wrap(at::bitwise_right_shift(wrapScalar(s), y));
        case BinOpKind::BitOr: return wrap(at::bitwise_or(y, s));
        case BinOpKind::BitXor: return wrap(at::bitwise_xor(y, s));
        case BinOpKind::BitAnd: return wrap(at::bitwise_and(y, s));
        }
        return Value();
    });
}

static Value tensorCompareImpl(Interp& in, CmpOpKind op, const Value& a, const Value& b);
Value tensorCompare(Interp& in, CmpOpKind op, const Value& a, const Value& b) {
    if (!in.tracer || (!isScalarLike(a) && !a.isTensor()) || (!isScalarLike(b) && !b.isTensor())) return tensorCompareImpl(in, op, a, b);
    CallArgs ca;
    ca.pos = {a, b};
    return traceOp(in, std::string("operator.") + cmpOpFunction(op), ca, [op](Interp& in, CallArgs& ca) { return tensorCompareImpl(in, op, ca.pos[0], ca.pos[1]); });
}

static Value tensorCompareImpl(Interp& in, CmpOpKind op, const Value& a, const Value& b) {
    bool at_ = a.isTensor(), bt = b.isTensor();
    if ((!at_ && !isScalarLike(a)) || (!bt && !isScalarLike(b))) {
        if (op == CmpOpKind::Eq) return Value::boolean(false);
        if (op == CmpOpKind::NotEq) return Value::boolean(true);
        static const char* sym[] = {"==", "!=", "<", "<=", ">", ">="};
        in.raiseType(std::string("'") + sym[int(op)] + "' not supported between instances of '" + in.typeName(a) + "' and '" + in.typeName(b) + "'");
    }
    // scalar OP tensor is tensor REVERSED-OP scalar
    CmpOpKind o = op;
    const Value* t = &a;
    const Value* other = &b;
    if (!at_) {
        t = &b;
        other = &a;
        switch (op) {
        case CmpOpKind::Lt: o = CmpOpKind::Gt; break;
        case CmpOpKind::LtE: o = CmpOpKind::GtE; break;
        case CmpOpKind::Gt: o = CmpOpKind::Lt; break;
        case CmpOpKind::GtE: o = CmpOpKind::LtE; break;
        default: break;
        }
    }
    return guarded(in, [&] {
        const at::Tensor& x = tensorOf(*t);
        if (other->isTensor()) {
            const at::Tensor& y = tensorOf(*other);
            switch (o) {
            case CmpOpKind::Eq: return wrap(at::eq(x, y));
            case CmpOpKind::NotEq: return wrap(at::ne(x, y));
            case CmpOpKind::Lt: return wrap(at::lt(x, y));
            case CmpOpKind::LtE: return wrap(at::le(x, y));
            case CmpOpKind::Gt: return wrap(at::gt(x, y));
            default: return wrap(at::ge(x, y));
            }
        }
        at::Scalar s = toScalar(in, *other, "other");
        switch (o) {
        case CmpOpKind::Eq: return wrap(at::eq(x, s));
        case CmpOpKind::NotEq: return wrap(at::ne(x, s));
        case CmpOpKind::Lt: return wrap(at::lt(x, s));
        case CmpOpKind::LtE: return wrap(at::le(x, s));
        case CmpOpKind::Gt: return wrap(at::gt(x, s));
        default: return wrap(at::ge(x, s));
        }
    });
}

// ---------------------------------------------------------------- indexing
namespace {
using at::indexing::TensorIndex;

void appendIndex(Interp& in, const Value& k, std::vector<TensorIndex>& out) {
    if (k.isBool()) { out.emplace_back(k.b()); return; }
    if (k.isInt()) { out.emplace_back(k.i()); return; }
    if (k.isNone()) { out.emplace_back(at::indexing::None); return; }
    if (k.is(OK::Ellipsis)) { out.emplace_back(at::indexing::Ellipsis); return; }
    if (k.isTensor()) { out.emplace_back(tensorOf(k)); return; }
    if (k.is(OK::Slice)) {
        // Bounds and steps past 64 bits clamp as Python's slices do (x[:10**30] is x). Any value
        // beyond +-2**62 acts like +-2**62 on a real dimension, and LibTorch 1.13 mistakes ints
        // below -2**62 for symbolic sizes, so they are clamped there.
        auto* s = k.as<SliceObj>();
        constexpr int64_t kFar = int64_t(1) << 62;
        auto num = [&](const Value& v, const char* what) {
            int64_t x = v.isIntLike() || isBigInt(v) ? clampedSliceInt(v) : toInt(in, v, what);
            return std::min(std::max(x, -kFar), kFar);
        };
        auto opt = [&](const Value& v) -> c10::optional<int64_t> {
            if (v.isNone()) return c10::nullopt;
            return num(v, "slice indices");
        };
        if (!s->step.isNone() && num(s->step, "slice step") <= 0) in.raiseValue("step must be greater than zero");
        out.emplace_back(at::indexing::Slice(opt(s->start), opt(s->stop), opt(s->step)));
        return;
    }
    if (k.is(OK::List)) {
        // A list index is advanced indexing with the tensor it spells.
        out.emplace_back(tensorFromData(in, k, std::nullopt));
        return;
    }
    in.raise(in.indexError, "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got " + in.typeName(k) + ")");
}

std::vector<TensorIndex> toIndices(Interp& in, const Value& key) {
    std::vector<TensorIndex> idx;
    if (key.is(OK::Tuple)) {
        for (auto& k : key.as<TupleObj>()->items) appendIndex(in, k, idx);
    } else {
        appendIndex(in, key, idx);
    }
    return idx;
}
} // namespace

static Value tensorGetItemImpl(Interp& in, const Value& t, const Value& key);
Value tensorGetItem(Interp& in, const Value& t, const Value& key) {
    if (!in.tracer) return tensorGetItemImpl(in, t, key);
    CallArgs ca;
    ca.pos = {t, key};
    return traceOp(in, "operator.getitem", ca, [](Interp& in, CallArgs& ca) { return tensorGetItemImpl(in, ca.pos[0], ca.pos[1]); });
}

static Value tensorGetItemImpl(Interp& in, const Value& t, const Value& key) {
    auto idx = toIndices(in, key);
    return guarded(in, [&] {
        at::Tensor r = tensorOf(t).index(idx);
        if (r.is_same(tensorOf(t))) r = r.alias();
        return wrap(r);
    });
}

static void tensorSetItemImpl(Interp& in, const Value& t, const Value& key, const Value& v);
void tensorSetItem(Interp& in, const Value& t, const Value& key, const Value& v) {
    if (!in.tracer) return tensorSetItemImpl(in, t, key, v);
    CallArgs ca;
    ca.pos = {t, key, v};
    traceOp(in, "operator.setitem", ca, [](Interp& in, CallArgs& ca) {
        tensorSetItemImpl(in, ca.pos[0], ca.pos[1], ca.pos[2]);
        return ca.pos[0];
    });
}

static void tensorSetItemImpl(Interp& in, const Value& t, const Value& key, const Value& v) {
    auto idx = toIndices(in, key);
    guarded(in, [&] {
        at::Tensor& x = tensorOf(t);
        if (v.isTensor()) x.index_put_(idx, tensorOf(v));
        else x.index_put_(idx, toScalar(in, v, "value"));
        return 0;
    });
}

bool tensorSetAttr(Interp& in, const Value& v, const std::string& name, const Value& val) {
    at::Tensor& t = tensorOf(v);
    if (name == "requires_grad") {
        guarded(in, [&] { t.requires_grad_(in.truthy(val)); return 0; });
        return true;
    }
    if (name == "grad") {
        guarded(in, [&] {
            if (val.isNone()) t.mutable_grad() = at::Tensor();
            else t.mutable_grad() = toTensor(in, val, "assigned grad");
            return 0;
        });
        return true;
    }
    if (name == "data") {
        guarded(in, [&] { t.set_data(toTensor(in, val, "data")); return 0; });
        return true;
    }
    return false;
}

// ---------------------------------------------------------------- dtypes
namespace {
struct DtypeInfo { at::ScalarType st; const char* name; };
const DtypeInfo kDtypes[] = {
    {at::kFloat, "float32"}, {at::kDouble, "float64"}, {at::kHalf, "float16"}, {at::kBFloat16, "bfloat16"},
    {at::kByte, "uint8"}, {at::kChar, "int8"}, {at::kShort, "int16"}, {at::kInt, "int32"}, {at::kLong, "int64"},
    {at::kBool, "bool"}, {at::kComplexFloat, "complex64"}, {at::kComplexDouble, "complex128"},
};
} // namespace

Value dtypeValue(Interp& in, at::ScalarType st) {
    static thread_local std::unordered_map<const Interp*, std::unordered_map<int, Value>> cache;
    auto& m = cache[&in];
    auto it = m.find(int(st));
    if (it != m.end()) return it->second;
    auto d = std::make_shared<DtypeObj>();
    d->scalarType = int(st);
    d->name = "unknown";
    for (auto& di : kDtypes)
        if (di.st == st) d->name = di.name;
    d->isFloating = at::isFloatingType(st);
    d->isComplex = at::isComplexType(st);
    d->isSigned = at::isSignedType(st);
    d->itemsize = int(c10::elementSize(st));
    Value v(d);
    m[int(st)] = v;
    return v;
}

const std::vector<std::pair<const char*, at::ScalarType>>& legacyTensorTypes() {
    static const std::vector<std::pair<const char*, at::ScalarType>> types = {
        {"FloatTensor", at::kFloat}, {"DoubleTensor", at::kDouble}, {"HalfTensor", at::kHalf}, {"BFloat16Tensor", at::kBFloat16},
        {"LongTensor", at::kLong}, {"IntTensor", at::kInt}, {"ShortTensor", at::kShort}, {"CharTensor", at::kChar},
        {"ByteTensor", at::kByte}, {"BoolTensor", at::kBool}};
    return types;
}

int tensorDtypeOf(const Value& v) { return int(tensorOf(v).scalar_type()); }

std::optional<at::ScalarType> toDtype(Interp& in, const Value& v) {
    if (v.isMissing() || v.isNone()) return std::nullopt;
    if (v.is(OK::Dtype)) return at::ScalarType(v.as<DtypeObj>()->scalarType);
    if (v.is(OK::Class)) {
        auto* c = v.as<ClassObj>();
        if (c == in.floatCls.get()) return at::kDouble;
        if (c == in.intCls.get()) return at::kLong;
        if (c == in.boolCls.get()) return at::kBool;
        if (c->tensorDtype >= 0) return at::ScalarType(c->tensorDtype); // torch.FloatTensor
    }
    if (v.isStr()) { // x.type('torch.FloatTensor')
        for (const auto& [name, st] : legacyTensorTypes())
            if (strOf(v) == std::string("torch.") + name) return st;
    }
    in.raiseType("dtype must be torch.dtype, not " + in.typeName(v));
}

} // namespace fl::script
