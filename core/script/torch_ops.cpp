// The table of tensor operations. Each entry is registered once and exposed as torch.NAME(...)
// and/or as the tensor method t.NAME(...), with PyTorch's argument names and defaults.
#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>
#include <sstream>

#include "core/script/hooks.h"
#include "core/script/builtins.h"
#include "core/script/tensor_obj.h"

namespace fl::script {

namespace {

enum Where { FN = 1, METHOD = 2, BOTH = 3 };

struct Args {
    Interp& in;
    std::vector<Value> v;
    const std::string& fname;
    const Sig& sig;
    bool method = false; // called as tensor.NAME(...): the tensor is parameter 0 and has no position
    bool has(size_t i) const { return i < v.size() && !v[i].isMissing() && !v[i].isNone(); }
    bool given(size_t i) const { return i < v.size() && !v[i].isMissing(); }
    const Value& operator[](size_t i) const { return v[i]; }
    // "add(): argument 'other' (position 2)", as PyTorch's argument parser names a parameter
    std::string argName(size_t i) const {
        std::string s = fname + "(): argument '" + sig.paramName(i) + "'";
        if (!sig.paramKeywordOnly(i) && !(method && i == 0)) s += " (position " + std::to_string(method ? i : i + 1) + ")";
        return s;
    }
    at::Tensor t(size_t i) { return v[i].isTensor() ? tensorOf(v[i]) : toTensor(in, v[i], argName(i).c_str()); }
    c10::optional<at::Tensor> ot(size_t i) { return has(i) ? c10::optional<at::Tensor>(t(i)) : c10::nullopt; }
    int64_t i(size_t k, int64_t d = 0) { return has(k) ? toInt(in, v[k], (fname + "(): argument").c_str()) : d; }
    double f(size_t k, double d = 0) { return has(k) ? toFloat(in, v[k], (fname + "(): argument").c_str()) : d; }
    bool b(size_t k, bool d = false) { return has(k) ? toBoolArg(in, v[k], fname, sig.paramName(k)) : d; }
    c10::optional<at::Generator> gen(size_t k) { return toGenerator(in, has(k) ? v[k] : Value()); }
    // a number; anything else is PyTorch's error for an operand (a Tensor was expected) or for a
    // keyword-only number such as alpha
    at::Scalar s(size_t k) {
        if (!isScalarLike(v[k]) && !v[k].isTensor()) {
            if (sig.paramKeywordOnly(k) || sig.paramName(k) == "alpha")
                in.raiseType(fname + "(): argument '" + sig.paramName(k) + "' must be Number, not " + in.typeName(v[k]));
            in.raiseType(argName(k) + " must be Tensor, not " + in.typeName(v[k]));
        }
        return toScalar(in, v[k], (fname + "(): argument").c_str());
    }
    std::vector<int64_t> ints(size_t k) { return toIntList(in, v[k], (fname + "(): argument").c_str()); }
    c10::optional<at::ScalarType> dtype(size_t k) {
        auto d = toDtype(in, has(k) ? v[k] : Value());
        return d ? c10::optional<at::ScalarType>(*d) : c10::nullopt;
    }
    std::string str(size_t k, const std::string& d) { return has(k) ? toStr(in, v[k], "argument") : d; }
    at::OptionalIntArrayRef dims(size_t k, std::vector<int64_t>& store) {
        if (!has(k)) return c10::nullopt;
        store = ints(k);
        return at::IntArrayRef(store);
    }
};

using OpFn = std::function<Value(Args&)>;

Value tuple(const std::vector<at::Tensor>& ts) {
    std::vector<Value> out;
    for (auto& t : ts) out.push_back(wrap(t));
    return makeTuple(std::move(out));
}

Value named(const std::string& name, std::vector<std::string> fields, std::vector<at::Tensor> ts) {
    Value t = tuple(ts);
    t.as<TupleObj>()->structName = "torch.return_types." + name;
    t.as<TupleObj>()->fieldNames = std::move(fields);
    return t;
}

struct Registry {
    Interp& in;
    ModuleObj* torch;
    void def(const std::string& names, const std::string& sig, int where, OpFn fn) {
        std::istringstream ss(names);
        std::string name;
        while (ss >> name) {
            auto shared = std::make_shared<std::pair<Sig, OpFn>>(Sig(name, sig), fn);
            auto nm = std::make_shared<std::string>(name);
            // The op itself, re-runnable by the capture layer's reference backend.
            OpInvoke run = [shared, nm](Interp& in, CallArgs& ca) {
                Args a{in, shared->first.bind(in, ca), *nm, shared->first};
                return guarded(in, [&] { return shared->second(a); });
            };
            OpInvoke runMethod = [shared, nm](Interp& in, CallArgs& ca) {
                Args a{in, shared->first.bind(in, ca), *nm, shared->first, /*method=*/true};
                return guarded(in, [&] { return shared->second(a); });
            };
            if (where & FN) {
                auto target = std::make_shared<std::string>("torch." + name);
                torch->ns->vars[name] = in.makeBuiltin(name, [run, target](Interp& in, const Value&, CallArgs& ca) {
                    if (in.tracer) return traceOp(in, *target, ca, run);
                    return run(in, ca);
                });
            }
            if (where & METHOD) {
                auto target = std::make_shared<std::string>("Tensor." + name);
                in.methodsOf(OK::Tensor)[name] = [runMethod, target](Interp& in, const Value& self, CallArgs& ca) {
                    ca.pos.insert(ca.pos.begin(), self);
                    if (in.tracer) return traceOp(in, *target, ca, runMethod);
                    return runMethod(in, ca);
                };
            }
        }
    }
};

Value finishFactory(Args& a, at::Tensor t, size_t requiresGradIdx) {
    if (a.b(requiresGradIdx)) t.requires_grad_(true);
    return wrap(t);
}

// x.to(...) / x.type(...) argument forms
Value convert(Args& a, const Value& self, const std::vector<Value>& rest, bool copy) {
    at::Tensor t = tensorOf(self);
    c10::optional<at::ScalarType> dt;
    for (auto& r : rest) {
        if (r.isMissing() || r.isNone()) continue;
        if (r.is(OK::Dtype) || r.is(OK::Class)) dt = *toDtype(a.in, r);
        else if (r.isStr() && strOf(r).rfind("torch.", 0) == 0) dt = *toDtype(a.in, r); // x.type('torch.IntTensor')
        else if (r.isTensor()) dt = tensorOf(r).scalar_type();
        else checkDevice(a.in, r);
    }
    if (!dt) return copy ? wrap(t.clone()) : self;
    if (*dt == t.scalar_type() && !copy) return self;
    return wrap(t.to(*dt, false, copy));
}

} // namespace

// Long: a table, one def() per tensor op (names, signature, body), read top to bottom.
void installTensorOps(Interp& in, const Value& torchModule) {
    Registry R{in, torchModule.as<ModuleObj>()};

    // ---- pointwise unary (and their in-place method forms)
    struct Unary { const char* name; at::Tensor (*f)(const at::Tensor&); at::Tensor& (*inplace)(at::Tensor&); };
    static const Unary unary[] = {
        {"abs", [](const at::Tensor& x) { return at::abs(x); }, [](at::Tensor& x) -> at::Tensor& { return x.abs_(); }},
        {"absolute", [](const at::Tensor& x) { return at::abs(x); }, nullptr},
        {"neg", [](const at::Tensor& x) { return at::neg(x); }, [](at::Tensor& x) -> at::Tensor& { return x.neg_(); }},
        {"negative", [](const at::Tensor& x) { return at::neg(x); }, nullptr},
        {"exp", [](const at::Tensor& x) { return at::exp(x); }, [](at::Tensor& x) -> at::Tensor& { return x.exp_(); }},
        {"exp2", [](const at::Tensor& x) { return at::exp2(x); }, nullptr},
        {"expm1", [](const at::Tensor& x) { return at::expm1(x); }, nullptr},
        {"log", [](const at::Tensor& x) { return at::log(x); }, [](at::Tensor& x) -> at::Tensor& { return x.log_(); }},
        {"log2", [](const at::Tensor& x) { return at::log2(x); }, nullptr},
        {"log10", [](const at::Tensor& x) { return at::log10(x); }, nullptr},
        {"log1p", [](const at::Tensor& x) { return at::log1p(x); }, nullptr},
        {"sqrt", [](const at::Tensor& x) { return at::sqrt(x); }, [](at::Tensor& x) -> at::Tensor& { return x.sqrt_(); }},
        {"rsqrt", [](const at::Tensor& x) { return at::rsqrt(x); }, [](at::Tensor& x) -> at::Tensor& { return x.rsqrt_(); }},
        {"sin", [](const at::Tensor& x) { return at::sin(x); }, [](at::Tensor& x) -> at::Tensor& { return x.sin_(); }},
        {"cos", [](const at::Tensor& x) { return at::cos(x); }, [](at::Tensor& x) -> at::Tensor& { return x.cos_(); }},
        {"tan", [](const at::Tensor& x) { return at::tan(x); }, nullptr},
        {"asin", [](const at::Tensor& x) { return at::asin(x); }, nullptr},
        {"acos", [](const at::Tensor& x) { return at::acos(x); }, nullptr},
        {"atan", [](const at::Tensor& x) { return at::atan(x); }, nullptr},
        {"sinh", [](const at::Tensor& x) { return at::sinh(x); }, nullptr},
        {"cosh", [](const at::Tensor& x) { return at::cosh(x); }, nullptr},
        {"tanh", [](const at::Tensor& x) { return at::tanh(x); }, [](at::Tensor& x) -> at::Tensor& { return x.tanh_(); }},
        {"sigmoid", [](const at::Tensor& x) { return at::sigmoid(x); }, [](at::Tensor& x) -> at::Tensor& { return x.sigmoid_(); }},
        {"relu", [](const at::Tensor& x) { return at::relu(x); }, [](at::Tensor& x) -> at::Tensor& { return x.relu_(); }},
        {"erf", [](const at::Tensor& x) { return at::erf(x); }, [](at::Tensor& x) -> at::Tensor& { return x.erf_(); }},
        {"erfc", [](const at::Tensor& x) { return at::erfc(x); }, nullptr},
        {"erfinv", [](const at::Tensor& x) { return at::erfinv(x); }, nullptr},
        {"floor", [](const at::Tensor& x) { return at::floor(x); }, [](at::Tensor& x) -> at::Tensor& { return x.floor_(); }},
        {"ceil", [](const at::Tensor& x) { return at::ceil(x); }, [](at::Tensor& x) -> at::Tensor& { return x.ceil_(); }},
        {"trunc", [](const at::Tensor& x) { return at::trunc(x); }, nullptr},
        {"frac", [](const at::Tensor& x) { return at::frac(x); }, nullptr},
        {"sign", [](const at::Tensor& x) { return at::sign(x); }, nullptr},
        {"sgn", [](const at::Tensor& x) { return at::sgn(x); }, nullptr},
        {"reciprocal", [](const at::Tensor& x) { return at::reciprocal(x); }, [](at::Tensor& x) -> at::Tensor& { return x.reciprocal_(); }},
        {"square", [](const at::Tensor& x) { return at::square(x); }, nullptr},
        {"logical_not", [](const at::Tensor& x) { return at::logical_not(x); }, nullptr},
        {"bitwise_not", [](const at::Tensor& x) { return at::bitwise_not(x); }, nullptr},
        {"isnan", [](const at::Tensor& x) { return at::isnan(x); }, nullptr},
        {"isinf", [](const at::Tensor& x) { return at::isinf(x); }, nullptr},
        {"isfinite", [](const at::Tensor& x) { return at::isfinite(x); }, nullptr},
        {"silu", [](const at::Tensor& x) { return at::silu(x); }, nullptr},
        {"positive", [](const at::Tensor& x) { return at::positive(x); }, nullptr},
    };
    for (const Unary& u : unary) {
        auto f = u.f;
        R.def(u.name, "input", BOTH, [f](Args& a) { return wrap(f(a.t(0))); });
        if (u.inplace) {
            auto ip = u.inplace;
            R.def(std::string(u.name) + "_", "self", METHOD, [ip](Args& a) { at::Tensor t = a.t(0); ip(t); return a[0]; });
        }
    }
    R.def("round", "input, *, decimals=", BOTH, [](Args& a) {
        return wrap(a.has(1) && a.i(1) != 0 ? at::round(a.t(0), a.i(1)) : at::round(a.t(0)));
    });
    R.def("round_", "self, *, decimals=", METHOD, [](Args& a) { a.t(0).round_(); return a[0]; });
    R.def("gelu", "input, *, approximate=", BOTH, [](Args& a) { return wrap(at::gelu(a.t(0), a.str(1, "none"))); });
    R.def("nan_to_num", "input, nan=, posinf=, neginf=", BOTH, [](Args& a) {
        auto od = [&](size_t k) { return a.has(k) ? c10::optional<double>(a.f(k)) : c10::nullopt; };
        return wrap(at::nan_to_num(a.t(0), od(1), od(2), od(3)));
    });

    // ---- binary arithmetic: tensor or number on the right
    auto binaryOp = [&](const std::string& names, at::Tensor (*tt)(const at::Tensor&, const at::Tensor&), at::Tensor (*ts)(const at::Tensor&, const at::Scalar&)) {
        R.def(names, "input, other", BOTH, [tt, ts](Args& a) {
            if (a[1].isTensor()) return wrap(tt(a.t(0), a.t(1)));
            if (!a[0].isTensor()) return wrap(tt(wrapScalar(a.s(0)), a.t(1)));
            return wrap(ts(a.t(0), a.s(1)));
        });
    };
    binaryOp("mul multiply", [](const at::Tensor& x, const at::Tensor& y) { return at::mul(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::mul(x, wrapScalar(s)); });
    binaryOp("remainder", [](const at::Tensor& x, const at::Tensor& y) { return at::remainder(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::remainder(x, s); });
    binaryOp("fmod", [](const at::Tensor& x, const at::Tensor& y) { return at::fmod(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::fmod(x, s); });
    binaryOp("floor_divide", [](const at::Tensor& x, const at::Tensor& y) { return at::floor_divide(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::floor_divide(x, s); });
    binaryOp("eq", [](const at::Tensor& x, const at::Tensor& y) { return at::eq(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::eq(x, s); });
    binaryOp("ne not_equal", [](const at::Tensor& x, const at::Tensor& y) { return at::ne(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::ne(x, s); });
    binaryOp("lt less", [](const at::Tensor& x, const at::Tensor& y) { return at::lt(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::lt(x, s); });
    binaryOp("le less_equal", [](const at::Tensor& x, const at::Tensor& y) { return at::le(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::le(x, s); });
    binaryOp("gt greater", [](const at::Tensor& x, const at::Tensor& y) { return at::gt(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::gt(x, s); });
    binaryOp("ge greater_equal", [](const at::Tensor& x, const at::Tensor& y) { return at::ge(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::ge(x, s); });
    binaryOp("bitwise_and", [](const at::Tensor& x, const at::Tensor& y) { return at::bitwise_and(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::bitwise_and(x, s); });
    binaryOp("bitwise_or", [](const at::Tensor& x, const at::Tensor& y) { return at::bitwise_or(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::bitwise_or(x, s); });
    binaryOp("bitwise_xor", [](const at::Tensor& x, const at::Tensor& y) { return at::bitwise_xor(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::bitwise_xor(x, s); });
    binaryOp("logical_and", [](const at::Tensor& x, const at::Tensor& y) { return at::logical_and(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::logical_and(x, wrapScalar(s)); });
    binaryOp("logical_or", [](const at::Tensor& x, const at::Tensor& y) { return at::logical_or(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::logical_or(x, wrapScalar(s)); });
    binaryOp("logical_xor", [](const at::Tensor& x, const at::Tensor& y) { return at::logical_xor(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::logical_xor(x, wrapScalar(s)); });
    binaryOp("maximum", [](const at::Tensor& x, const at::Tensor& y) { return at::maximum(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::maximum(x, wrapScalar(s)); });
    binaryOp("minimum", [](const at::Tensor& x, const at::Tensor& y) { return at::minimum(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::minimum(x, wrapScalar(s)); });
    binaryOp("atan2", [](const at::Tensor& x, const at::Tensor& y) { return at::atan2(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::atan2(x, wrapScalar(s)); });
    binaryOp("hypot", [](const at::Tensor& x, const at::Tensor& y) { return at::hypot(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::hypot(x, wrapScalar(s)); });
    binaryOp("copysign", [](const at::Tensor& x, const at::Tensor& y) { return at::copysign(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::copysign(x, s); });
    binaryOp("true_divide", [](const at::Tensor& x, const at::Tensor& y) { return at::div(x, y); }, [](const at::Tensor& x, const at::Scalar& s) { return at::div(x, s); });
    R.def("add", "input, other, *, alpha=", BOTH, [](Args& a) {
        at::Scalar alpha = a.has(2) ? a.s(2) : at::Scalar(1);
        return wrap(at::add(a.t(0), a[1].isTensor() ? a.t(1) : wrapScalar(a.s(1)), alpha));
    });
    R.def("sub subtract", "input, other, *, alpha=", BOTH, [](Args& a) {
        at::Scalar alpha = a.has(2) ? a.s(2) : at::Scalar(1);
        return wrap(at::sub(a.t(0), a[1].isTensor() ? a.t(1) : wrapScalar(a.s(1)), alpha));
    });
    R.def("rsub", "input, other, *, alpha=", BOTH, [](Args& a) {
        at::Scalar alpha = a.has(2) ? a.s(2) : at::Scalar(1);
        if (a[1].isTensor()) return wrap(at::rsub(a.t(0), a.t(1), alpha));
        return wrap(at::rsub(a.t(0), a.s(1), alpha));
    });
    R.def("div divide", "input, other, *, rounding_mode=", BOTH, [](Args& a) {
        c10::optional<c10::string_view> mode;
        std::string m = a.str(2, "");
        if (!m.empty()) mode = m;
        return wrap(at::div(a.t(0), a[1].isTensor() ? a.t(1) : wrapScalar(a.s(1)), mode));
    });
    R.def("pow", "input, exponent", BOTH, [](Args& a) {
        if (!a[0].isTensor()) return wrap(at::pow(a.s(0), a.t(1)));
        if (a[1].isTensor()) return wrap(at::pow(a.t(0), a.t(1)));
        return wrap(at::pow(a.t(0), a.s(1)));
    });
    // in-place binary methods
    struct InplaceBin { const char* name; void (*tt)(at::Tensor&, const at::Tensor&, const at::Scalar&); void (*ts)(at::Tensor&, const at::Scalar&, const at::Scalar&); };
    static const InplaceBin ibins[] = {
        {"add_", [](at::Tensor& x, const at::Tensor& y, const at::Scalar& al) { x.add_(y, al); }, [](at::Tensor& x, const at::Scalar& s, const at::Scalar& al) { x.add_(wrapScalar(s), al); }},
        {"sub_", [](at::Tensor& x, const at::Tensor& y, const at::Scalar& al) { x.sub_(y, al); }, [](at::Tensor& x, const at::Scalar& s, const at::Scalar& al) { x.sub_(wrapScalar(s), al); }},
        {"mul_", [](at::Tensor& x, const at::Tensor& y, const at::Scalar&) { x.mul_(y); }, [](at::Tensor& x, const at::Scalar& s, const at::Scalar&) { x.mul_(wrapScalar(s)); }},
        {"div_", [](at::Tensor& x, const at::Tensor& y, const at::Scalar&) { x.div_(y); }, [](at::Tensor& x, const at::Scalar& s, const at::Scalar&) { x.div_(wrapScalar(s)); }},
        {"pow_", [](at::Tensor& x, const at::Tensor& y, const at::Scalar&) { x.pow_(y); }, [](at::Tensor& x, const at::Scalar& s, const at::Scalar&) { x.pow_(s); }},
        {"remainder_", [](at::Tensor& x, const at::Tensor& y, const at::Scalar&) { x.remainder_(y); }, [](at::Tensor& x, const at::Scalar& s, const at::Scalar&) { x.remainder_(s); }},
        {"copy_", [](at::Tensor& x, const at::Tensor& y, const at::Scalar&) { x.copy_(y); }, nullptr},
    };
    for (const InplaceBin& ib : ibins) {
        auto tt = ib.tt;
        auto ts = ib.ts;
        R.def(ib.name, "self, other, *, alpha=", METHOD, [tt, ts](Args& a) {
            at::Tensor x = a.t(0);
            at::Scalar alpha = a.has(2) ? a.s(2) : at::Scalar(1);
            if (a[1].isTensor()) tt(x, a.t(1), alpha);
            else if (ts) ts(x, a.s(1), alpha);
            else a.in.raiseType("copy_(): argument 'src' must be Tensor, not " + a.in.typeName(a[1]));
            return a[0];
        });
    }
    R.def("lerp", "input, end, weight", BOTH, [](Args& a) {
        return wrap(a[2].isTensor() ? at::lerp(a.t(0), a.t(1), a.t(2)) : at::lerp(a.t(0), a.t(1), a.s(2)));
    });
    R.def("lerp_", "self, end, weight", METHOD, [](Args& a) {
        at::Tensor x = a.t(0);
        a[2].isTensor() ? x.lerp_(a.t(1), a.t(2)) : x.lerp_(a.t(1), a.s(2));
        return a[0];
    });
    R.def("addcmul", "input, tensor1, tensor2, *, value=", BOTH, [](Args& a) { return wrap(at::addcmul(a.t(0), a.t(1), a.t(2), a.has(3) ? a.s(3) : at::Scalar(1))); });
    R.def("addcdiv", "input, tensor1, tensor2, *, value=", BOTH, [](Args& a) { return wrap(at::addcdiv(a.t(0), a.t(1), a.t(2), a.has(3) ? a.s(3) : at::Scalar(1))); });
    R.def("addcmul_", "self, tensor1, tensor2, *, value=", METHOD, [](Args& a) { a.t(0).addcmul_(a.t(1), a.t(2), a.has(3) ? a.s(3) : at::Scalar(1)); return a[0]; });
    R.def("addcdiv_", "self, tensor1, tensor2, *, value=", METHOD, [](Args& a) { a.t(0).addcdiv_(a.t(1), a.t(2), a.has(3) ? a.s(3) : at::Scalar(1)); return a[0]; });
    R.def("addmm", "input, mat1, mat2, *, beta=, alpha=", BOTH, [](Args& a) {
        return wrap(at::addmm(a.t(0), a.t(1), a.t(2), a.has(3) ? a.s(3) : at::Scalar(1), a.has(4) ? a.s(4) : at::Scalar(1)));
    });
    R.def("matmul", "input, other", BOTH, [](Args& a) { return wrap(at::matmul(a.t(0), a.t(1))); });
    R.def("mm", "input, mat2", BOTH, [](Args& a) { return wrap(at::mm(a.t(0), a.t(1))); });
    R.def("bmm", "input, mat2", BOTH, [](Args& a) { return wrap(at::bmm(a.t(0), a.t(1))); });
    R.def("mv", "input, vec", BOTH, [](Args& a) { return wrap(at::mv(a.t(0), a.t(1))); });
    R.def("dot", "input, other", BOTH, [](Args& a) { return wrap(at::dot(a.t(0), a.t(1))); });
    R.def("outer", "input, vec2", BOTH, [](Args& a) { return wrap(at::outer(a.t(0), a.t(1))); });
    R.def("einsum", "equation, *operands", FN, [](Args& a) {
        std::vector<at::Tensor> ts;
        auto& items = a[1].as<TupleObj>()->items;
        if (items.size() == 1 && (items[0].is(OK::List) || items[0].is(OK::Tuple))) {
            for (auto& x : a.in.toVector(items[0])) ts.push_back(toTensor(a.in, x, "einsum(): operand"));
        } else {
            for (auto& x : items) ts.push_back(toTensor(a.in, x, "einsum(): operand"));
        }
        return wrap(at::einsum(a.str(0, ""), ts));
    });

    R.def("clamp clip", "input, min=, max=", BOTH, [](Args& a) {
        if ((a.has(1) && a[1].isTensor()) || (a.has(2) && a[2].isTensor())) return wrap(at::clamp(a.t(0), a.ot(1), a.ot(2)));
        c10::optional<at::Scalar> lo, hi;
        if (a.has(1)) lo = a.s(1);
        if (a.has(2)) hi = a.s(2);
        return wrap(at::clamp(a.t(0), lo, hi));
    });
    R.def("clamp_ clip_", "self, min=, max=", METHOD, [](Args& a) {
        c10::optional<at::Scalar> lo, hi;
        if (a.has(1)) lo = a.s(1);
        if (a.has(2)) hi = a.s(2);
        a.t(0).clamp_(lo, hi);
        return a[0];
    });
    R.def("clamp_min", "input, min", BOTH, [](Args& a) { return wrap(at::clamp_min(a.t(0), a.s(1))); });
    R.def("clamp_max", "input, max", BOTH, [](Args& a) { return wrap(at::clamp_max(a.t(0), a.s(1))); });
    R.def("clamp_min_", "self, min", METHOD, [](Args& a) { a.t(0).clamp_min_(a.s(1)); return a[0]; });
    R.def("where", "condition, input=, other=", FN, [](Args& a) {
        if (!a.given(1)) return tuple(at::where(a.t(0)));
        bool xt = a[1].isTensor(), yt = a[2].isTensor();
        if (xt && yt) return wrap(at::where(a.t(0), a.t(1), a.t(2)));
        if (xt) return wrap(at::where(a.t(0), a.t(1), a.s(2)));
        if (yt) return wrap(at::where(a.t(0), a.s(1), a.t(2)));
        return wrap(at::where(a.t(0), a.s(1), a.s(2)));
    });
    R.def("where", "self, condition, other", METHOD, [](Args& a) {
        return wrap(a[2].isTensor() ? at::where(a.t(1), a.t(0), a.t(2)) : at::where(a.t(1), a.t(0), a.s(2)));
    });
    R.def("masked_fill", "input, mask, value", BOTH, [](Args& a) {
        return wrap(a[2].isTensor() ? at::masked_fill(a.t(0), a.t(1), a.t(2)) : at::masked_fill(a.t(0), a.t(1), a.s(2)));
    });
    R.def("masked_fill_", "self, mask, value", METHOD, [](Args& a) {
        a[2].isTensor() ? a.t(0).masked_fill_(a.t(1), a.t(2)) : a.t(0).masked_fill_(a.t(1), a.s(2));
        return a[0];
    });
    R.def("masked_select", "input, mask", BOTH, [](Args& a) { return wrap(at::masked_select(a.t(0), a.t(1))); });
    R.def("tril", "input, diagonal=", BOTH, [](Args& a) { return wrap(at::tril(a.t(0), a.i(1, 0))); });
    R.def("triu", "input, diagonal=", BOTH, [](Args& a) { return wrap(at::triu(a.t(0), a.i(1, 0))); });
    R.def("tril_", "self, diagonal=", METHOD, [](Args& a) { a.t(0).tril_(a.i(1, 0)); return a[0]; });
    R.def("triu_", "self, diagonal=", METHOD, [](Args& a) { a.t(0).triu_(a.i(1, 0)); return a[0]; });
    R.def("diag", "input, diagonal=", BOTH, [](Args& a) { return wrap(at::diag(a.t(0), a.i(1, 0))); });
    R.def("diagonal", "input, offset=, dim1=, dim2=", BOTH, [](Args& a) { return wrap(at::diagonal(a.t(0), a.i(1, 0), a.i(2, 0), a.i(3, 1))); });
    R.def("trace", "input", BOTH, [](Args& a) { return wrap(at::trace(a.t(0))); });
    R.def("allclose", "input, other, rtol=, atol=, equal_nan=", BOTH, [](Args& a) {
        return Value::boolean(at::allclose(a.t(0), a.t(1), a.f(2, 1e-5), a.f(3, 1e-8), a.b(4)));
    });
    R.def("isclose", "input, other, rtol=, atol=, equal_nan=", BOTH, [](Args& a) {
        return wrap(at::isclose(a.t(0), a.t(1), a.f(2, 1e-5), a.f(3, 1e-8), a.b(4)));
    });
    R.def("equal", "input, other", BOTH, [](Args& a) { return Value::boolean(at::equal(a.t(0), a.t(1))); });

    // ---- reductions
    R.def("sum", "input, dim=, keepdim=, *, dtype=", BOTH, [](Args& a) {
        std::vector<int64_t> d;
        if (!a.has(1)) return wrap(at::sum(a.t(0), a.dtype(3)));
        return wrap(at::sum(a.t(0), a.dims(1, d), a.b(2), a.dtype(3)));
    });
    R.def("nansum", "input, dim=, keepdim=, *, dtype=", BOTH, [](Args& a) {
        std::vector<int64_t> d;
        return wrap(at::nansum(a.t(0), a.has(1) ? at::IntArrayRef(d = a.ints(1)) : at::IntArrayRef(), a.b(2), a.dtype(3)));
    });
    R.def("mean", "input, dim=, keepdim=, *, dtype=", BOTH, [](Args& a) {
        std::vector<int64_t> d;
        if (!a.has(1)) return wrap(at::mean(a.t(0), a.dtype(3)));
        return wrap(at::mean(a.t(0), a.dims(1, d), a.b(2), a.dtype(3)));
    });
    R.def("prod", "input, dim=, keepdim=, *, dtype=", BOTH, [](Args& a) {
        if (!a.has(1)) return wrap(at::prod(a.t(0), a.dtype(3)));
        return wrap(at::prod(a.t(0), a.i(1), a.b(2), a.dtype(3)));
    });
    auto varStd = [&](const std::string& name, bool isStd) {
        R.def(name, "input, dim=, unbiased=, keepdim=, *, correction=", BOTH, [isStd](Args& a) {
            // x.var(False) passes unbiased positionally
            Value dimV = a.given(1) ? a[1] : Value();
            bool unbiased = a.b(2, true);
            if (dimV.isBool()) { unbiased = dimV.b(); dimV = Value(); }
            std::vector<int64_t> d;
            at::OptionalIntArrayRef dims = c10::nullopt;
            if (!dimV.isNone()) { d = toIntList(a.in, dimV, "dim"); dims = at::IntArrayRef(d); }
            if (a.has(4)) {
                c10::optional<int64_t> corr = a.i(4);
                return wrap(isStd ? at::std(a.t(0), dims, corr, a.b(3)) : at::var(a.t(0), dims, corr, a.b(3)));
            }
            if (!dims) return wrap(isStd ? at::std(a.t(0), unbiased) : at::var(a.t(0), unbiased));
            return wrap(isStd ? at::std(a.t(0), dims, unbiased, a.b(3)) : at::var(a.t(0), dims, unbiased, a.b(3)));
        });
    };
    varStd("var", false);
    varStd("std", true);
    auto maxMin = [&](const std::string& name, bool isMax) {
        R.def(name, "input, dim=, keepdim=", BOTH, [isMax, name](Args& a) {
            if (!a.has(1)) return wrap(isMax ? at::max(a.t(0)) : at::min(a.t(0)));
            if (a[1].isTensor()) return wrap(isMax ? at::maximum(a.t(0), a.t(1)) : at::minimum(a.t(0), a.t(1)));
            auto r = isMax ? at::max(a.t(0), a.i(1), a.b(2)) : at::min(a.t(0), a.i(1), a.b(2));
            return named(name, {"values", "indices"}, {std::get<0>(r), std::get<1>(r)});
        });
    };
    maxMin("max", true);
    maxMin("min", false);
    R.def("amax", "input, dim=, keepdim=", BOTH, [](Args& a) {
        std::vector<int64_t> d = a.has(1) ? a.ints(1) : std::vector<int64_t>{};
        return wrap(at::amax(a.t(0), d, a.b(2)));
    });
    R.def("amin", "input, dim=, keepdim=", BOTH, [](Args& a) {
        std::vector<int64_t> d = a.has(1) ? a.ints(1) : std::vector<int64_t>{};
        return wrap(at::amin(a.t(0), d, a.b(2)));
    });
    R.def("argmax", "input, dim=, keepdim=", BOTH, [](Args& a) {
        return wrap(at::argmax(a.t(0), a.has(1) ? c10::optional<int64_t>(a.i(1)) : c10::nullopt, a.b(2)));
    });
    R.def("argmin", "input, dim=, keepdim=", BOTH, [](Args& a) {
        return wrap(at::argmin(a.t(0), a.has(1) ? c10::optional<int64_t>(a.i(1)) : c10::nullopt, a.b(2)));
    });
    R.def("all", "input, dim=, keepdim=", BOTH, [](Args& a) { return wrap(a.has(1) ? at::all(a.t(0), a.i(1), a.b(2)) : at::all(a.t(0))); });
    R.def("any", "input, dim=, keepdim=", BOTH, [](Args& a) { return wrap(a.has(1) ? at::any(a.t(0), a.i(1), a.b(2)) : at::any(a.t(0))); });
    R.def("logsumexp", "input, dim, keepdim=", BOTH, [](Args& a) { return wrap(at::logsumexp(a.t(0), a.ints(1), a.b(2))); });
    R.def("cumsum", "input, dim, *, dtype=", BOTH, [](Args& a) { return wrap(at::cumsum(a.t(0), a.i(1), a.dtype(2))); });
    R.def("cumprod", "input, dim, *, dtype=", BOTH, [](Args& a) { return wrap(at::cumprod(a.t(0), a.i(1), a.dtype(2))); });
    R.def("norm", "input, p=, dim=, keepdim=, dtype=", BOTH, [](Args& a) {
        at::Scalar p = a.has(1) && !a[1].isStr() ? a.s(1) : at::Scalar(2.0);
        if (!a.has(2)) return wrap(at::norm(a.t(0), p));
        return wrap(at::norm(a.t(0), c10::optional<at::Scalar>(p), a.ints(2), a.b(3)));
    });
    R.def("count_nonzero", "input, dim=", BOTH, [](Args& a) {
        return wrap(a.has(1) ? at::count_nonzero(a.t(0), a.ints(1)) : at::count_nonzero(a.t(0), c10::optional<int64_t>()));
    });
    R.def("softmax", "input, dim, dtype=", BOTH, [](Args& a) { return wrap(at::softmax(a.t(0), a.i(1), a.dtype(2))); });
    R.def("log_softmax", "input, dim, dtype=", BOTH, [](Args& a) { return wrap(at::log_softmax(a.t(0), a.i(1), a.dtype(2))); });
    R.def("topk", "input, k, dim=, largest=, sorted=", BOTH, [](Args& a) {
        auto r = at::topk(a.t(0), a.i(1), a.i(2, -1), a.b(3, true), a.b(4, true));
        return named("topk", {"values", "indices"}, {std::get<0>(r), std::get<1>(r)});
    });
    R.def("sort", "input, dim=, descending=, *, stable=", BOTH, [](Args& a) {
        auto r = at::sort(a.t(0), c10::optional<bool>(a.b(3)), a.i(1, -1), a.b(2));
        return named("sort", {"values", "indices"}, {std::get<0>(r), std::get<1>(r)});
    });
    R.def("argsort", "input, dim=, descending=", BOTH, [](Args& a) { return wrap(at::argsort(a.t(0), a.i(1, -1), a.b(2))); });
    R.def("unique", "input, sorted=, return_inverse=, return_counts=, dim=", BOTH, [](Args& a) {
        auto r = at::_unique2(a.t(0), a.b(1, true), a.b(2), a.b(3));
        bool inv = a.b(2), cnt = a.b(3);
        if (!inv && !cnt) return wrap(std::get<0>(r));
        std::vector<at::Tensor> out{std::get<0>(r)};
        if (inv) out.push_back(std::get<1>(r));
        if (cnt) out.push_back(std::get<2>(r));
        return tuple(out);
    });

    // ---- shapes and views
    R.def("view", "self, *shape", METHOD, [](Args& a) {
        auto& items = a[1].as<TupleObj>()->items;
        if (items.size() == 1 && (items[0].is(OK::Dtype))) return wrap(a.t(0).view(*toDtype(a.in, items[0])));
        return wrap(a.t(0).view(sizeArgs(a.in, a[1], "view")));
    });
    R.def("reshape", "input, *shape", BOTH, [](Args& a) { return wrap(a.t(0).reshape(sizeArgs(a.in, a[1], "reshape", "shape"))); });
    R.def("view_as", "self, other", METHOD, [](Args& a) { return wrap(a.t(0).view_as(a.t(1))); });
    R.def("reshape_as", "self, other", METHOD, [](Args& a) { return wrap(a.t(0).reshape_as(a.t(1))); });
    R.def("expand", "self, *sizes", METHOD, [](Args& a) { return wrap(a.t(0).expand(sizeArgs(a.in, a[1], "expand"))); });
    R.def("expand_as", "self, other", METHOD, [](Args& a) { return wrap(a.t(0).expand_as(a.t(1))); });
    R.def("repeat", "self, *sizes", METHOD, [](Args& a) {
        auto sizes = sizeArgs(a.in, a[1], "repeat", "repeats");
        std::vector<int64_t> out(sizes);
        for (int64_t d = 0, off = int64_t(sizes.size()) - a.t(0).dim(); d < a.t(0).dim(); ++d)
            if (off + d >= 0) out[off + d] *= a.t(0).size(d);
        checkNumel(a.in, out, a.t(0).scalar_type());
        return wrap(a.t(0).repeat(sizes));
    });
    R.def("permute", "input, *dims", BOTH, [](Args& a) { return wrap(a.t(0).permute(sizeArgs(a.in, a[1], "permute", "dims", false))); });
    R.def("transpose swapaxes swapdims", "input, dim0, dim1", BOTH, [](Args& a) { return wrap(at::transpose(a.t(0), a.i(1), a.i(2))); });
    R.def("transpose_", "self, dim0, dim1", METHOD, [](Args& a) { a.t(0).transpose_(a.i(1), a.i(2)); return a[0]; });
    R.def("t", "input", BOTH, [](Args& a) { return wrap(at::t(a.t(0))); });
    R.def("t_", "self", METHOD, [](Args& a) { a.t(0).t_(); return a[0]; });
    R.def("movedim moveaxis", "input, source, destination", BOTH, [](Args& a) { return wrap(at::movedim(a.t(0), a.ints(1), a.ints(2))); });
    R.def("flatten", "input, start_dim=, end_dim=", BOTH, [](Args& a) { return wrap(at::flatten(a.t(0), a.i(1, 0), a.i(2, -1))); });
    R.def("unflatten", "input, dim, sizes", BOTH, [](Args& a) { return wrap(a.t(0).unflatten(a.i(1), a.ints(2))); });
    R.def("squeeze", "input, dim=", BOTH, [](Args& a) { return wrap(a.has(1) ? at::squeeze(a.t(0), a.i(1)) : at::squeeze(a.t(0))); });
    R.def("unsqueeze", "input, dim", BOTH, [](Args& a) { return wrap(at::unsqueeze(a.t(0), a.i(1))); });
    R.def("squeeze_", "self, dim=", METHOD, [](Args& a) { a.has(1) ? a.t(0).squeeze_(a.i(1)) : a.t(0).squeeze_(); return a[0]; });
    R.def("unsqueeze_", "self, dim", METHOD, [](Args& a) { a.t(0).unsqueeze_(a.i(1)); return a[0]; });
    R.def("contiguous", "self, memory_format=", METHOD, [](Args& a) {
        at::Tensor t = a.t(0);
        return t.is_contiguous() ? a[0] : wrap(t.contiguous());
    });
    R.def("split", "tensor, split_size_or_sections, dim=", BOTH, [](Args& a) {
        if (a[1].isIntLike()) return tuple(at::split(a.t(0), a.i(1), a.i(2, 0)));
        return tuple(at::split_with_sizes(a.t(0), a.ints(1), a.i(2, 0)));
    });
    R.def("chunk", "input, chunks, dim=", BOTH, [](Args& a) { return tuple(at::chunk(a.t(0), a.i(1), a.i(2, 0))); });
    R.def("unbind", "input, dim=", BOTH, [](Args& a) { return tuple(at::unbind(a.t(0), a.i(1, 0))); });
    auto tensorList = [](Args& a, size_t k) {
        std::vector<at::Tensor> ts;
        for (auto& x : a.in.toVector(a[k])) ts.push_back(toTensor(a.in, x, ("expected Tensor as element in argument of " + a.fname + "()").c_str()));
        return ts;
    };
    R.def("cat concat concatenate", "tensors, dim=", FN, [tensorList](Args& a) { return wrap(at::cat(tensorList(a, 0), a.i(1, 0))); });
    R.def("stack", "tensors, dim=", FN, [tensorList](Args& a) { return wrap(at::stack(tensorList(a, 0), a.i(1, 0))); });
    R.def("hstack", "tensors", FN, [tensorList](Args& a) { return wrap(at::hstack(tensorList(a, 0))); });
    R.def("vstack", "tensors", FN, [tensorList](Args& a) { return wrap(at::vstack(tensorList(a, 0))); });
    R.def("broadcast_tensors", "*tensors", FN, [](Args& a) {
        std::vector<at::Tensor> ts;
        for (auto& x : a[0].as<TupleObj>()->items) ts.push_back(toTensor(a.in, x, "broadcast_tensors(): argument"));
        return tuple(at::broadcast_tensors(ts));
    });
    R.def("meshgrid", "*tensors, indexing=", FN, [](Args& a) {
        std::vector<at::Tensor> ts;
        for (auto& x : a[0].as<TupleObj>()->items) ts.push_back(toTensor(a.in, x, "meshgrid(): argument"));
        return tuple(at::meshgrid(ts, a.str(1, "ij")));
    });
    R.def("flip", "input, dims", BOTH, [](Args& a) { return wrap(at::flip(a.t(0), a.ints(1))); });
    R.def("roll", "input, shifts, dims=", BOTH, [](Args& a) {
        return wrap(at::roll(a.t(0), a.ints(1), a.has(2) ? a.ints(2) : std::vector<int64_t>{}));
    });
    R.def("narrow", "input, dim, start, length", BOTH, [](Args& a) { return wrap(at::narrow(a.t(0), a.i(1), a.i(2), a.i(3))); });
    R.def("select", "input, dim, index", BOTH, [](Args& a) { return wrap(at::select(a.t(0), a.i(1), a.i(2))); });
    R.def("index_select", "input, dim, index", BOTH, [](Args& a) { return wrap(at::index_select(a.t(0), a.i(1), a.t(2))); });
    R.def("gather", "input, dim, index", BOTH, [](Args& a) { return wrap(at::gather(a.t(0), a.i(1), a.t(2))); });
    R.def("scatter", "input, dim, index, src=, *, value=", BOTH, [](Args& a) {
        if (a.has(3) && a[3].isTensor()) return wrap(at::scatter(a.t(0), a.i(1), a.t(2), a.t(3)));
        return wrap(at::scatter(a.t(0), a.i(1), a.t(2), a.has(3) ? a.s(3) : a.s(4)));
    });
    R.def("scatter_", "self, dim, index, src=, *, value=", METHOD, [](Args& a) {
        if (a.has(3) && a[3].isTensor()) a.t(0).scatter_(a.i(1), a.t(2), a.t(3));
        else a.t(0).scatter_(a.i(1), a.t(2), a.has(3) ? a.s(3) : a.s(4));
        return a[0];
    });
    R.def("scatter_add", "input, dim, index, src", BOTH, [](Args& a) { return wrap(at::scatter_add(a.t(0), a.i(1), a.t(2), a.t(3))); });
    R.def("index_add", "input, dim, index, source, *, alpha=", BOTH, [](Args& a) {
        return wrap(at::index_add(a.t(0), a.i(1), a.t(2), a.t(3), a.has(4) ? a.s(4) : at::Scalar(1)));
    });
    R.def("index_add_", "self, dim, index, source, *, alpha=", METHOD, [](Args& a) {
        a.t(0).index_add_(a.i(1), a.t(2), a.t(3), a.has(4) ? a.s(4) : at::Scalar(1));
        return a[0];
    });
    R.def("index_fill", "input, dim, index, value", BOTH, [](Args& a) { return wrap(at::index_fill(a.t(0), a.i(1), a.t(2), a.s(3))); });
    R.def("index_fill_", "self, dim, index, value", METHOD, [](Args& a) { a.t(0).index_fill_(a.i(1), a.t(2), a.s(3)); return a[0]; });
    R.def("index_copy_", "self, dim, index, source", METHOD, [](Args& a) { a.t(0).index_copy_(a.i(1), a.t(2), a.t(3)); return a[0]; });
    R.def("new_tensor", "self, data, *, dtype=, device=, requires_grad=", METHOD, [](Args& a) {
        at::Tensor t = tensorFromData(a.in, a[1], a.dtype(2).value_or(a.t(0).scalar_type()));
        if (a.b(4)) t.requires_grad_(true);
        return wrap(t);
    });
    R.def("nonzero", "input, *, as_tuple=", BOTH, [](Args& a) {
        if (a.b(1)) return tuple(at::nonzero_numpy(a.t(0)));
        return wrap(at::nonzero(a.t(0)));
    });
    R.def("argwhere", "input", BOTH, [](Args& a) { return wrap(at::argwhere(a.t(0))); });

    // ---- metadata and conversions (methods)
    R.def("size", "self, dim=", METHOD, [](Args& a) {
        if (a.has(1)) return Value::integer(a.t(0).size(a.i(1)));
        return sizeValue(a.t(0).sizes());
    });
    R.def("stride", "self, dim=", METHOD, [](Args& a) {
        if (a.has(1)) return Value::integer(a.t(0).stride(a.i(1)));
        std::vector<Value> s;
        for (int64_t x : a.t(0).strides()) s.push_back(Value::integer(x));
        return makeTuple(std::move(s));
    });
    R.def("numel", "input", BOTH, [](Args& a) { return Value::integer(a.t(0).numel()); });
    R.def("nelement", "self", METHOD, [](Args& a) { return Value::integer(a.t(0).numel()); });
    R.def("dim ndimension", "self", METHOD, [](Args& a) { return Value::integer(a.t(0).dim()); });
    R.def("element_size", "self", METHOD, [](Args& a) { return Value::integer(a.t(0).element_size()); });
    R.def("storage_offset", "self", METHOD, [](Args& a) { return Value::integer(a.t(0).storage_offset()); });
    R.def("is_contiguous", "self, memory_format=", METHOD, [](Args& a) { return Value::boolean(a.t(0).is_contiguous()); });
    R.def("is_floating_point", "input", BOTH, [](Args& a) { return Value::boolean(a.t(0).is_floating_point()); });
    R.def("is_complex", "input", BOTH, [](Args& a) { return Value::boolean(a.t(0).is_complex()); });
    R.def("is_nonzero", "input", BOTH, [](Args& a) { return Value::boolean(a.t(0).is_nonzero()); });
    R.def("item", "self", METHOD, [](Args& a) {
        if (a.t(0).numel() != 1) a.in.raiseValue("only one element tensors can be converted to Python scalars");
        return scalarToValue(a.t(0));
    });
    R.def("tolist", "self", METHOD, [](Args& a) { return tensorToList(a.in, a.t(0)); });
    R.def("numpy", "self, *, force=", METHOD, [](Args& a) -> Value { a.in.raise(a.in.runtimeError, "numpy is not available in model scripts"); });
    R.def("cpu", "self, memory_format=", METHOD, [](Args& a) { return a[0]; });
    R.def("cuda", "self, device=, non_blocking=", METHOD, [](Args& a) -> Value { a.in.raise(a.in.assertionError, "Torch not compiled with CUDA enabled"); });
    R.def("to", "self, *args, dtype=, device=, non_blocking=, copy=", METHOD, [](Args& a) {
        std::vector<Value> rest = a[1].as<TupleObj>()->items;
        if (a.has(2)) rest.push_back(a[2]);
        if (a.has(3)) rest.push_back(a[3]);
        return convert(a, a[0], rest, a.b(5));
    });
    R.def("type", "self, dtype=, non_blocking=", METHOD, [](Args& a) {
        if (!a.has(1)) {
            static const std::pair<at::ScalarType, const char*> names[] = {
                {at::kFloat, "torch.FloatTensor"}, {at::kDouble, "torch.DoubleTensor"}, {at::kHalf, "torch.HalfTensor"},
                {at::kBFloat16, "torch.BFloat16Tensor"}, {at::kLong, "torch.LongTensor"}, {at::kInt, "torch.IntTensor"},
                {at::kShort, "torch.ShortTensor"}, {at::kChar, "torch.CharTensor"}, {at::kByte, "torch.ByteTensor"}, {at::kBool, "torch.BoolTensor"}};
            for (auto& [st, n] : names)
                if (st == a.t(0).scalar_type()) return makeStr(n);
            return makeStr("torch.Tensor");
        }
        return convert(a, a[0], {a[1]}, false);
    });
    R.def("type_as", "self, other", METHOD, [](Args& a) { return convert(a, a[0], {a[1]}, false); });
    struct Cast { const char* name; at::ScalarType st; };
    static const Cast casts[] = {{"float", at::kFloat}, {"double", at::kDouble}, {"half", at::kHalf}, {"bfloat16", at::kBFloat16},
                                 {"long", at::kLong}, {"int", at::kInt}, {"short", at::kShort}, {"char", at::kChar},
                                 {"byte", at::kByte}, {"bool", at::kBool}};
    for (const Cast& c : casts) {
        at::ScalarType st = c.st;
        R.def(c.name, "self, memory_format=", METHOD, [st](Args& a) {
            at::Tensor t = a.t(0);
            return t.scalar_type() == st ? a[0] : wrap(t.to(st));
        });
    }
    R.def("detach", "input", BOTH, [](Args& a) { return wrap(a.t(0).detach()); });
    R.def("detach_", "self", METHOD, [](Args& a) { a.t(0).detach_(); return a[0]; });
    R.def("clone", "input, *, memory_format=", BOTH, [](Args& a) { return wrap(a.t(0).clone()); });
    R.def("requires_grad_", "self, requires_grad=", METHOD, [](Args& a) { a.t(0).requires_grad_(a.b(1, true)); return a[0]; });
    R.def("retain_grad", "self", METHOD, [](Args& a) { a.t(0).retain_grad(); return Value(); });
    R.def("backward", "self, gradient=, retain_graph=, create_graph=, inputs=", METHOD, [](Args& a) {
        at::Tensor t = a.t(0);
        if (!a.has(1) && t.numel() != 1) a.in.raise(a.in.runtimeError, "grad can be implicitly created only for scalar outputs");
        c10::optional<bool> retain;
        if (a.has(2)) retain = a.b(2);
        t.backward(a.has(1) ? a.t(1) : at::Tensor(), retain, a.b(3));
        return Value();
    });
    R.def("zero_", "self", METHOD, [](Args& a) { a.t(0).zero_(); return a[0]; });
    R.def("fill_", "self, value", METHOD, [](Args& a) {
        a[1].isTensor() ? a.t(0).fill_(a.t(1)) : a.t(0).fill_(a.s(1));
        return a[0];
    });
    R.def("uniform_", "self, from=, to=, *, generator=", METHOD, [](Args& a) { a.t(0).uniform_(a.f(1, 0.0), a.f(2, 1.0), a.gen(3)); return a[0]; });
    R.def("normal_", "self, mean=, std=, *, generator=", METHOD, [](Args& a) { a.t(0).normal_(a.f(1, 0.0), a.f(2, 1.0), a.gen(3)); return a[0]; });
    R.def("bernoulli_", "self, p=, *, generator=", METHOD, [](Args& a) { a.t(0).bernoulli_(a.f(1, 0.5), a.gen(2)); return a[0]; });
    R.def("bernoulli", "input, p=, *, generator=", BOTH, [](Args& a) { return wrap(a.has(1) ? at::bernoulli(a.t(0), a.f(1), a.gen(2)) : at::bernoulli(a.t(0), a.gen(2))); });
    R.def("multinomial", "input, num_samples, replacement=, *, generator=", BOTH, [](Args& a) { return wrap(at::multinomial(a.t(0), a.i(1), a.b(2), a.gen(3))); });
    auto newLike = [&](const std::string& name, int kind) {
        R.def(name, "self, *size, fill_value=, dtype=, device=, requires_grad=", METHOD, [kind](Args& a) {
            at::Tensor t = a.t(0);
            std::vector<Value> items = a[1].as<TupleObj>()->items;
            Value fill = a.given(2) ? a[2] : Value();
            if (kind == 3 && !a.given(2) && !items.empty()) { fill = items.back(); items.pop_back(); } // new_full(size, fill)
            auto sz = sizeArgs(a.in, makeTuple(items), a.fname.c_str());
            at::TensorOptions o = t.options().dtype(a.dtype(3).value_or(t.scalar_type()));
            checkNumel(a.in, sz, o.dtype().toScalarType());
            at::Tensor r = kind == 0 ? at::zeros(sz, o) : kind == 1 ? at::ones(sz, o) : kind == 2 ? at::empty(sz, o) : at::full(sz, toScalar(a.in, fill, "fill_value"), o);
            return finishFactory(a, r, 5);
        });
    };
    newLike("new_zeros", 0);
    newLike("new_ones", 1);
    newLike("new_empty", 2);
    newLike("new_full", 3);

    // named-tuple fields and torch.Size helpers
    in.setAttrHook(OK::Tuple, [](Interp&, const Value& self, const std::string& name, Value& out) {
        auto* t = self.as<TupleObj>();
        for (size_t i = 0; i < t->fieldNames.size(); ++i)
            if (t->fieldNames[i] == name) { out = t->items[i]; return true; }
        if (t->isSize && name == "numel") {
            auto b = std::make_shared<BuiltinObj>();
            b->name = "numel";
            b->self = self;
            b->fn = [](Interp&, const Value& s, CallArgs&) {
                int64_t n = 1;
                for (auto& x : s.as<TupleObj>()->items) n *= x.i();
                return Value::integer(n);
            };
            out = Value(b);
            return true;
        }
        return false;
    });
}

} // namespace fl::script
