// The derivative rules: for each differentiable op of the op table, the backward as graph nodes
// (which formulas exist follows PyTorch's derivatives.yaml; the nodes are ordinary ops the
// backend lowers: pointwise math, reductions, matmul, views). Each rule reads its forward call's
// arguments by position or keyword, as lowering does, and declines (with a reason) forms it does
// not cover; the frame then keeps eager backward.
#include "core/autograd/rules.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>

#include "core/graph/ops.h"

namespace fl::autograd::detail {

using graph::Op;
using graph::TensorMeta;

const TensorMeta* metaOf(const Arg& a) {
    if (a.kind != Arg::Kind::NodeRef || !a.node) return nullptr;
    size_t i = a.index < 0 ? 0 : size_t(a.index);
    return i < a.node->meta.size() ? &a.node->meta[i] : nullptr;
}

Shape shapeOf(const TensorMeta& m) {
    Shape s;
    for (auto& d : m.shape) s.push_back(d.value);
    return s;
}

int64_t numel(const Shape& s) { return std::accumulate(s.begin(), s.end(), int64_t(1), std::multiplies<int64_t>()); }

namespace {

TensorMeta metaFor(const Shape& shape, const std::string& dtype) {
    TensorMeta m;
    for (int64_t v : shape) m.shape.push_back(graph::Dim::constant(v));
    m.dtype = dtype;
    return m;
}

std::string pyFloat(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, r.ptr);
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    return s;
}

// NumPy's broadcasting of two shapes
Shape broadcastShapes(const Shape& sa, const Shape& sb) {
    Shape out(std::max(sa.size(), sb.size()), 1);
    for (size_t i = 0; i < out.size(); ++i) {
        int64_t x = i < out.size() - sa.size() ? 1 : sa[i - (out.size() - sa.size())];
        int64_t y = i < out.size() - sb.size() ? 1 : sb[i - (out.size() - sb.size())];
        out[i] = x == 1 ? y : x;
    }
    return out;
}

Shape normDims(std::vector<int64_t> dims, size_t rank) {
    for (auto& d : dims)
        if (d < 0) d += int64_t(rank);
    std::sort(dims.begin(), dims.end());
    dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
    return dims;
}

} // namespace

// ------------------------------------------------------------------ the builder
Arg Builder::num(double v) { return Arg::lit(pyFloat(v), graph::Const::real(v)); }

Arg Builder::ints(const Shape& v) {
    std::string s = "(";
    std::vector<graph::Const> items;
    for (size_t i = 0; i < v.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(v[i]);
        items.push_back(graph::Const::integer(v[i]));
    }
    if (v.size() == 1) s += ",";
    return Arg::lit(s + ")", graph::Const::tuple(std::move(items)));
}

Arg Builder::call(const std::string& target, std::vector<Arg> args, TensorMeta meta, std::vector<std::pair<std::string, Arg>> kw) {
    graph::Node& n = g_.addCall(target, std::move(args), std::move(kw));
    n.meta.push_back(std::move(meta));
    ++calls_;
    return Arg::ref(&n);
}

const graph::Node* Builder::callTuple(const std::string& target, std::vector<Arg> args, std::vector<TensorMeta> metas) {
    graph::Node& n = g_.addCall(target, std::move(args));
    n.meta = std::move(metas);
    ++calls_;
    return &n;
}

TensorMeta Builder::broadcast(const Arg& a, const Arg& b, const std::string& dtype) {
    const TensorMeta* ma = metaOf(a);
    const TensorMeta* mb = metaOf(b);
    return metaFor(broadcastShapes(ma ? shapeOf(*ma) : Shape{}, mb ? shapeOf(*mb) : Shape{}), dtype);
}

static std::string floatDtype(const Arg& a, const Arg& b) {
    if (const TensorMeta* m = metaOf(a); m && m->dtype != "bool" && m->dtype != "int64") return m->dtype;
    if (const TensorMeta* m = metaOf(b); m && m->dtype != "bool" && m->dtype != "int64") return m->dtype;
    return "float32";
}

// Arithmetic as the Python operators capture records (a number may be either operand).
Arg Builder::add(const Arg& a, const Arg& b) { return call("operator.add", {a, b}, broadcast(a, b, floatDtype(a, b))); }
Arg Builder::sub(const Arg& a, const Arg& b) { return call("operator.sub", {a, b}, broadcast(a, b, floatDtype(a, b))); }
Arg Builder::mul(const Arg& a, const Arg& b) { return call("operator.mul", {a, b}, broadcast(a, b, floatDtype(a, b))); }
Arg Builder::div(const Arg& a, const Arg& b) { return call("operator.truediv", {a, b}, broadcast(a, b, floatDtype(a, b))); }
Arg Builder::neg(const Arg& a) { return call("torch.neg", {a}, *metaOf(a)); }
Arg Builder::unary(const char* op, const Arg& a) { return call(std::string("torch.") + op, {a}, *metaOf(a)); }
Arg Builder::pow(const Arg& a, double e) { return call("torch.pow", {a, num(e)}, *metaOf(a)); }
Arg Builder::compare(const char* op, const Arg& a, const Arg& b) { return call(std::string("torch.") + op, {a, b}, broadcast(a, b, "bool")); }
Arg Builder::logical(const char* op, const Arg& a, const Arg& b) { return call(std::string("torch.") + op, {a, b}, broadcast(a, b, "bool")); }
Arg Builder::logicalNot(const Arg& a) { return call("torch.logical_not", {a}, *metaOf(a)); }
Arg Builder::where(const Arg& c, const Arg& a, const Arg& b) {
    const TensorMeta* mc = metaOf(c);
    Shape s = broadcastShapes(mc ? shapeOf(*mc) : Shape{}, shapeOf(broadcast(a, b, "float32")));
    return call("torch.where", {c, a, b}, metaFor(s, floatDtype(a, b)));
}
Arg Builder::zeroWhere(const Arg& x, const Arg& mask) { return call("torch.Tensor.masked_fill", {x, mask, num(0.0)}, *metaOf(x)); }
Arg Builder::toFloat(const Arg& a, const std::string& dtype) {
    TensorMeta m = *metaOf(a);
    m.dtype = dtype;
    m.requiresGrad = false;
    return call("torch.Tensor.float", {a}, m);
}

Arg Builder::reduce(const char* target, const Arg& a, std::vector<int64_t> dims, bool keepdim) {
    Shape s = shapeOf(*metaOf(a));
    dims = normDims(dims, s.size());
    Shape out;
    for (size_t i = 0; i < s.size(); ++i) {
        bool reduced = std::find(dims.begin(), dims.end(), int64_t(i)) != dims.end();
        if (!reduced) out.push_back(s[i]);
        else if (keepdim) out.push_back(1);
    }
    return call(target, {a, ints(dims), Arg::boolean(keepdim)}, metaFor(out, metaOf(a)->dtype));
}
Arg Builder::sum(const Arg& a, std::vector<int64_t> dims, bool keepdim) { return reduce("torch.Tensor.sum", a, std::move(dims), keepdim); }
Arg Builder::mean(const Arg& a, std::vector<int64_t> dims, bool keepdim) { return reduce("torch.Tensor.mean", a, std::move(dims), keepdim); }

Arg Builder::sumTo(const Arg& a, const Shape& shape) {
    Shape s = shapeOf(*metaOf(a));
    if (s == shape) return a;
    size_t lead = s.size() - shape.size();
    std::vector<int64_t> dims;
    for (size_t i = 0; i < s.size(); ++i)
        if (i < lead || (shape[i - lead] == 1 && s[i] != 1)) dims.push_back(int64_t(i));
    Arg r = dims.empty() ? a : sum(a, dims, true);
    return shapeOf(*metaOf(r)) == shape ? r : reshape(r, shape);
}

Arg Builder::reshape(const Arg& a, const Shape& shape) {
    if (shapeOf(*metaOf(a)) == shape) return a;
    return call("torch.Tensor.reshape", {a, ints(shape)}, metaFor(shape, metaOf(a)->dtype));
}
Arg Builder::expand(const Arg& a, const Shape& shape) {
    if (shapeOf(*metaOf(a)) == shape) return a;
    return call("torch.Tensor.expand", {a, ints(shape)}, metaFor(shape, metaOf(a)->dtype));
}
Arg Builder::transpose(const Arg& a, int64_t d0, int64_t d1) {
    Shape s = shapeOf(*metaOf(a));
    int64_t r = int64_t(s.size());
    std::swap(s[size_t((d0 + r) % r)], s[size_t((d1 + r) % r)]);
    return call("torch.Tensor.transpose", {a, Arg::integer(d0), Arg::integer(d1)}, metaFor(s, metaOf(a)->dtype));
}
Arg Builder::permute(const Arg& a, const Shape& dims) {
    Shape s = shapeOf(*metaOf(a)), out;
    for (int64_t d : dims) out.push_back(s[size_t(d)]);
    return call("torch.Tensor.permute", {a, ints(dims)}, metaFor(out, metaOf(a)->dtype));
}
Arg Builder::matmul(const Arg& a, const Arg& b) {
    Shape sa = shapeOf(*metaOf(a)), sb = shapeOf(*metaOf(b));
    Shape out = broadcastShapes(Shape(sa.begin(), sa.end() - 2), Shape(sb.begin(), sb.end() - 2));
    out.push_back(sa[sa.size() - 2]);
    out.push_back(sb.back());
    return call("torch.matmul", {a, b}, metaFor(out, metaOf(a)->dtype));
}
Arg Builder::pad(const Arg& a, const Shape& widths, const Shape& shape) {
    return call("torch.nn.functional.pad", {a, ints(widths)}, metaFor(shape, metaOf(a)->dtype));
}
Arg Builder::zeros(const Shape& shape, const std::string& dtype) { return call("torch.zeros", {ints(shape)}, metaFor(shape, dtype)); }

// ------------------------------------------------------------------ argument access
namespace {

struct Call {
    const graph::Node& n;
    const Arg* arg(size_t pos, const char* kw) const {
        if (pos < n.args.size()) return &n.args[pos];
        if (kw)
            for (auto& [k, a] : n.kwargs)
                if (k == kw) return &a;
        return nullptr;
    }
    // The argument is absent or None.
    bool isNoneOrAbsent(size_t pos, const char* kw) const {
        const Arg* a = arg(pos, kw);
        return !a || a->isNoneConst();
    }
    const TensorMeta& out() const { return n.meta.at(0); }
    Shape outShape() const { return shapeOf(out()); }
};

struct Unsupported {
    std::string why;
};
[[noreturn]] void decline(std::string why) { throw Unsupported{std::move(why)}; }

int64_t constInt(const Arg* a, int64_t dflt) {
    if (!a || a->isNoneConst()) return dflt;
    if (!a->isConst() || !a->value.isIntLike()) decline("a non-constant integer argument");
    return a->value.i;
}
double constNum(const Arg* a, double dflt) {
    if (!a || a->isNoneConst()) return dflt;
    if (!a->isConst() || !a->value.isNumber()) decline("a non-constant number argument");
    return a->value.num();
}
std::string constStr(const Arg* a, const std::string& dflt) {
    if (!a || a->isNoneConst()) return dflt;
    if (!a->isConst() || !a->value.isStr()) decline("a non-constant string argument");
    return a->value.s;
}
void addInts(const Arg& a, Shape& r) {
    if (a.kind == Arg::Kind::List || a.kind == Arg::Kind::Tuple) {
        for (auto& x : a.items) addInts(x, r);
        return;
    }
    if (!a.isConst()) decline("a size that is not a constant");
    if (a.value.isIntLike()) { r.push_back(a.value.i); return; }
    if (a.value.kind != graph::Const::Kind::Tuple) decline("a size that is not a constant");
    for (auto& x : a.value.items) {
        if (!x.isIntLike()) decline("a size that is not a constant");
        r.push_back(x.i);
    }
}
Shape intsArg(const Arg* a) {
    Shape r;
    if (a) addInts(*a, r);
    return r;
}
// dims of a reduction: absent/None/empty = all
Shape reduceDims(const Arg* a, size_t rank) {
    Shape d = (!a || a->isNoneConst()) ? Shape{} : intsArg(a);
    if (d.empty())
        for (size_t i = 0; i < rank; ++i) d.push_back(int64_t(i));
    return normDims(d, rank);
}


// ------------------------------------------------------------------ the rules
// Each gets the builder, the call, the gradient of its (first) result and pushes input grads.
struct Ctx {
    Builder& b;
    Call c;
    const std::vector<Arg>& gradOut;
    const NeedsGrad& needsGrad;
    std::vector<InputGrad>& out;
    Arg g() const { return gradOut.at(0); }
    Arg self() const { return Arg::ref(&c.n); }
    // A tensor input the gradient flows to (a float graph value that needs one), else null.
    const Arg* diff(const Arg* a) const {
        if (!a || a->kind != Arg::Kind::NodeRef) return nullptr;
        const TensorMeta* m = metaOf(*a);
        if (!m || m->dtype == "bool" || m->dtype == "int64" || m->dtype == "int32") return nullptr;
        return needsGrad(*a) ? a : nullptr;
    }
    // The input's gradient, made (by `make`) only when the input needs one, summed back to its shape.
    template <class F>
    void give(const Arg* input, F&& make) {
        if (const Arg* in = diff(input)) out.push_back({*in, b.sumTo(make(), shapeOf(*metaOf(*in)))});
    }
};
using RuleFn = void (*)(Ctx&);

// The second operand, `other` or `exponent`, when it is a tensor; its number when a constant.
void ruleAdd(Ctx& x, bool subtract) {
    const Arg* a = x.c.arg(0, "input");
    const Arg* o = x.c.arg(1, "other");
    double alpha = constNum(x.c.arg(2, "alpha"), 1.0);
    x.give(a, [&] { return x.g(); });
    if (x.diff(o)) {
        Arg go = x.g();
        if (alpha != 1.0) go = x.b.mul(go, Builder::num(alpha));
        x.give(o, [&] { return subtract ? x.b.neg(go) : go; });
    }
}

void rulePointwise(Ctx& x, Op op) {
    Builder& b = x.b;
    const Arg* a = x.c.arg(0, op == Op::Where ? "condition" : "input");
    Arg g = x.g();
    switch (op) {
    case Op::Add: case Op::Radd: return ruleAdd(x, false);
    case Op::Sub: return ruleAdd(x, true);
    case Op::Rsub: { // rsub(a, b, alpha) = b - alpha * a
        double alpha = constNum(x.c.arg(2, "alpha"), 1.0);
        x.give(a, [&] { return b.neg(alpha == 1.0 ? g : b.mul(g, Builder::num(alpha))); });
        x.give(x.c.arg(1, "other"), [&] { return g; });
        return;
    }
    case Op::Mul: case Op::Rmul: {
        const Arg* o = x.c.arg(1, "other");
        x.give(a, [&] { return b.mul(g, *o); });
        if (x.diff(o)) x.give(o, [&] { return b.mul(g, *a); });
        return;
    }
    case Op::Div: {
        const Arg* o = x.c.arg(1, "other");
        if (!x.c.isNoneOrAbsent(2, "rounding_mode")) decline("div with a rounding mode has no gradient");
        x.give(a, [&] { return b.div(g, *o); });
        if (x.diff(o)) x.give(o, [&] { return b.mul(b.neg(g), b.div(x.self(), *o)); });
        return;
    }
    case Op::Neg: return x.give(a, [&] { return b.neg(g); });
    case Op::Exp: return x.give(a, [&] { return b.mul(g, x.self()); });
    case Op::Log: return x.give(a, [&] { return b.div(g, *a); });
    case Op::Sqrt: return x.give(a, [&] { return b.div(g, b.mul(x.self(), Builder::num(2.0))); });
    case Op::Rsqrt: return x.give(a, [&] { return b.mul(b.mul(g, Builder::num(-0.5)), b.pow(x.self(), 3.0)); });
    case Op::Sigmoid: return x.give(a, [&] { return b.mul(b.mul(g, b.sub(Builder::num(1.0), x.self())), x.self()); });
    case Op::Tanh: return x.give(a, [&] { return b.mul(g, b.sub(Builder::num(1.0), b.mul(x.self(), x.self()))); });
    case Op::Sin: return x.give(a, [&] { return b.mul(g, b.unary("cos", *a)); });
    case Op::Cos: return x.give(a, [&] { return b.mul(g, b.neg(b.unary("sin", *a))); });
    case Op::Relu: return x.give(a, [&] { return b.zeroWhere(g, b.compare("le", x.self(), Builder::num(0.0))); });
    case Op::Square: return x.give(a, [&] { return b.mul(g, b.mul(*a, Builder::num(2.0))); });
    case Op::Pow: {
        const Arg* e = x.c.arg(1, "exponent");
        if (!e || !e->isConst() || !e->value.isNumber()) decline("pow with a tensor exponent");
        double p = e->value.num();
        if (!x.diff(a)) return;
        if (p == 0) return x.give(a, [&] { return b.mul(g, Builder::num(0.0)); });
        Arg d = p == 2 ? b.mul(*a, Builder::num(2.0)) : b.mul(b.pow(*a, p - 1), Builder::num(p));
        return x.give(a, [&] { return b.mul(g, d); });
    }
    case Op::LeakyRelu: {
        if (!x.diff(a)) return;
        double slope = constNum(x.c.arg(1, "negative_slope"), 0.01);
        if (!x.c.isNoneOrAbsent(2, "inplace") && x.c.arg(2, "inplace")->value.truth()) decline("an in-place leaky_relu");
        return x.give(a, [&] { return b.where(b.compare("gt", *a, Builder::num(0.0)), g, b.mul(g, Builder::num(slope))); });
    }
    case Op::Clamp: case Op::ClampMin: case Op::ClampMax: {
        if (!x.diff(a)) return;
        const Arg* lo = op == Op::ClampMax ? nullptr : x.c.arg(1, "min");
        const Arg* hi = op == Op::Clamp ? x.c.arg(2, "max") : op == Op::ClampMax ? x.c.arg(1, "max") : nullptr;
        if ((lo && !lo->isConst()) || (hi && !hi->isConst())) decline("clamp with tensor bounds");
        Arg keep;
        bool have = false;
        if (lo && !lo->isNoneConst()) { keep = b.compare("ge", *a, *lo); have = true; }
        if (hi && !hi->isNoneConst()) {
            Arg k = b.compare("le", *a, *hi);
            keep = have ? b.logical("logical_and", keep, k) : k;
            have = true;
        }
        return x.give(a, [&] { return have ? b.zeroWhere(g, b.logicalNot(keep)) : g; });
    }
    case Op::Gelu: {
        if (!x.diff(a)) return;
        std::string approx = constStr(x.c.arg(1, "approximate"), "none");
        if (approx == "none") {
            // cdf + x * pdf: 0.5 (1 + erf(x / sqrt 2)) + x exp(-x^2 / 2) / sqrt(2 pi)
            Arg cdf = b.mul(b.add(b.unary("erf", b.mul(*a, Builder::num(M_SQRT1_2))), Builder::num(1.0)), Builder::num(0.5));
            Arg pdf = b.mul(b.unary("exp", b.mul(b.mul(*a, *a), Builder::num(-0.5))), Builder::num(M_2_SQRTPI * M_SQRT1_2 * 0.5));
            return x.give(a, [&] { return b.mul(g, b.add(cdf, b.mul(*a, pdf))); });
        }
        if (approx != "tanh") decline("gelu with approximate='" + approx + "'");
        const double beta = M_SQRT2 * M_2_SQRTPI * 0.5, kappa = 0.044715;
        Arg sq = b.mul(*a, *a);
        Arg inner = b.mul(b.add(*a, b.mul(b.mul(sq, *a), Builder::num(kappa))), Builder::num(beta));
        Arg t = b.unary("tanh", inner);
        Arg left = b.mul(*a, Builder::num(0.5));
        Arg right = b.add(t, Builder::num(1.0));
        Arg dt = b.sub(Builder::num(1.0), b.mul(t, t));
        Arg dinner = b.mul(b.add(b.mul(sq, Builder::num(3 * kappa)), Builder::num(1.0)), Builder::num(beta));
        Arg d = b.add(b.mul(right, Builder::num(0.5)), b.mul(b.mul(left, dt), dinner));
        return x.give(a, [&] { return b.mul(g, d); });
    }
    case Op::Silu: {
        if (!x.diff(a)) return;
        Arg s = b.unary("sigmoid", *a);
        return x.give(a, [&] { return b.mul(b.mul(g, s), b.add(b.mul(*a, b.sub(Builder::num(1.0), s)), Builder::num(1.0))); });
    }
    case Op::Where: {
        const Arg* cond = a;
        x.give(x.c.arg(1, "input"), [&] { return b.zeroWhere(g, b.logicalNot(*cond)); });
        x.give(x.c.arg(2, "other"), [&] { return b.zeroWhere(g, *cond); });
        return;
    }
    case Op::MaskedFill: return x.give(a, [&] { return b.zeroWhere(g, *x.c.arg(1, "mask")); });
    default: decline(std::string("no derivative rule for ") + graph::opName(op));
    }
}

void ruleConvert(Ctx& x, Op op) {
    const Arg* a = x.c.arg(0, "input");
    const TensorMeta* in = x.diff(a) ? metaOf(*a) : nullptr;
    if (!in) return;
    if (in->dtype != x.c.out().dtype) decline("a conversion to another dtype");
    if (op == Op::Clone || op == Op::Contiguous || op == Op::To || op == Op::Float || op == Op::TypeAs) x.give(a, [&] { return x.g(); });
}

void ruleReduce(Ctx& x, Op op) {
    Builder& b = x.b;
    const Arg* a = x.c.arg(0, "input");
    if (!x.diff(a)) return;
    Shape in = shapeOf(*metaOf(*a));
    if (!x.c.isNoneOrAbsent(3, "dtype")) decline("a reduction with a dtype");
    if (op != Op::Sum && op != Op::Mean) decline(std::string("no derivative rule for ") + graph::opName(op));
    Shape dims = reduceDims(x.c.arg(1, "dim"), in.size());
    // the gradient in the keepdim shape (whatever keepdim was), broadcast back to the input's
    Shape kept = in;
    for (int64_t d : dims) kept[size_t(d)] = 1;
    Arg g = b.expand(b.reshape(x.g(), kept), in);
    if (op == Op::Mean) {
        int64_t n = 1;
        for (int64_t d : dims) n *= in[size_t(d)];
        g = b.div(g, Builder::num(double(n)));
    }
    x.give(a, [&] { return g; });
}

void ruleNormalize(Ctx& x, Op op) {
    Builder& b = x.b;
    const Arg* a = x.c.arg(0, "input");
    const Arg* w = x.c.arg(2, "weight");
    const Arg* bias = x.c.arg(3, "bias");
    if (!x.diff(a) && (op != Op::LayerNorm || (!x.diff(w) && !x.diff(bias)))) return;
    Shape in = shapeOf(*metaOf(*a));
    Arg g = x.g();
    if (op == Op::Softmax || op == Op::LogSoftmax) {
        if (!x.c.isNoneOrAbsent(3, "dtype")) decline("softmax with a dtype");
        const Arg* d = x.c.arg(1, "dim");
        if (!d || d->isNoneConst()) decline("softmax without a dim");
        int64_t dim = constInt(d, 0);
        if (op == Op::Softmax) return x.give(a, [&] { return b.mul(b.sub(g, b.sum(b.mul(g, x.self()), {dim}, true)), x.self()); });
        return x.give(a, [&] { return b.sub(g, b.mul(b.unary("exp", x.self()), b.sum(g, {dim}, true))); });
    }
    // layer_norm(input, normalized_shape, weight, bias, eps): mean and 1/std recomputed from the input
    Shape ns = intsArg(x.c.arg(1, "normalized_shape"));
    double eps = constNum(x.c.arg(4, "eps"), 1e-5);
    if (w && !w->isNoneConst() && w->kind != Arg::Kind::NodeRef) decline("layer_norm with a constant weight");
    std::vector<int64_t> dims, lead;
    for (size_t i = 0; i < in.size(); ++i) (i + ns.size() < in.size() ? lead : dims).push_back(int64_t(i));
    Arg mu = b.mean(*a, dims, true);
    Arg xc = b.sub(*a, mu);
    Arg rstd = b.unary("rsqrt", b.add(b.mean(b.mul(xc, xc), dims, true), Builder::num(eps)));
    Arg xhat = b.mul(xc, rstd);
    bool hasW = w && !w->isNoneConst();
    Arg gx = hasW ? b.mul(g, *w) : g;
    Arg t = b.sub(b.sub(gx, b.mean(gx, dims, true)), b.mul(xhat, b.mean(b.mul(gx, xhat), dims, true)));
    x.give(a, [&] { return b.mul(rstd, t); });
    if (hasW && x.diff(w)) x.give(w, [&] { return lead.empty() ? b.mul(g, xhat) : b.sum(b.mul(g, xhat), lead, false); });
    if (bias && !bias->isNoneConst() && x.diff(bias)) x.give(bias, [&] { return lead.empty() ? g : b.sum(g, lead, false); });
}

void ruleMatmul(Ctx& x, Op op) {
    Builder& b = x.b;
    const Arg* a = x.c.arg(0, "input");
    const Arg* w = x.c.arg(1, op == Op::Linear ? "weight" : op == Op::Matmul ? "other" : "mat2");
    if (!a || !w || !metaOf(*a) || !metaOf(*w)) decline("a matmul operand that is not a graph value");
    Shape sa = shapeOf(*metaOf(*a)), sw = shapeOf(*metaOf(*w));
    Arg g = x.g();
    if (op == Op::Linear) {
        if (sa.size() < 2 || sw.size() != 2) decline("linear of a 1-D input");
        int64_t rows = numel(sa) / sa.back();
        x.give(a, [&] { return b.matmul(g, *w); });
        if (x.diff(w)) {
            Arg g2 = b.reshape(g, {rows, sw[0]});
            Arg a2 = b.reshape(*a, {rows, sw[1]});
            x.give(w, [&] { return b.matmul(b.transpose(g2, 0, 1), a2); });
        }
        const Arg* bias = x.c.arg(2, "bias");
        if (bias && !bias->isNoneConst() && x.diff(bias)) {
            std::vector<int64_t> lead;
            for (size_t i = 0; i + 1 < sa.size(); ++i) lead.push_back(int64_t(i));
            x.give(bias, [&] { return b.sum(g, lead, false); });
        }
        return;
    }
    if (sa.size() < 2 || sw.size() < 2) decline("a matmul of a 1-D operand");
    x.give(a, [&] { return b.matmul(g, b.transpose(*w, -2, -1)); });
    if (!x.diff(w)) return;
    if (sa.size() > 2 && sw.size() == 2) {
        int64_t rows = numel(sa) / sa.back();
        Arg a2 = b.reshape(*a, {rows, sa.back()});
        Arg g2 = b.reshape(g, {rows, sw.back()});
        return x.give(w, [&] { return b.matmul(b.transpose(a2, 0, 1), g2); });
    }
    x.give(w, [&] { return b.matmul(b.transpose(*a, -2, -1), g); });
}

// A view's gradient: the gradient reshaped, transposed back, or padded with zeros around a slice.
void ruleView(Ctx& x, Op op) {
    Builder& b = x.b;
    const Arg* a = x.c.arg(0, "input");
    if (!x.diff(a)) return;
    Shape in = shapeOf(*metaOf(*a));
    Arg g = x.g();
    switch (op) {
    case Op::View: case Op::Reshape: case Op::Flatten: case Op::Unsqueeze: case Op::Squeeze:
        return x.give(a, [&] { return b.reshape(g, in); });
    case Op::Contiguous: return x.give(a, [&] { return g; });
    case Op::Detach: return;
    case Op::Expand: return x.give(a, [&] { return g; }); // give() sums back to the input's shape
    case Op::T: return x.give(a, [&] { return in.size() < 2 ? g : b.transpose(g, 0, 1); });
    case Op::Transpose: return x.give(a, [&] { return b.transpose(g, constInt(x.c.arg(1, "dim0"), 0), constInt(x.c.arg(2, "dim1"), 1)); });
    case Op::Permute: {
        Shape p;
        if (x.c.n.args.size() > 2) for (size_t i = 1; i < x.c.n.args.size(); ++i) addInts(x.c.n.args[i], p);
        else p = intsArg(x.c.arg(1, "dims"));
        for (auto& d : p) if (d < 0) d += int64_t(in.size());
        Shape inv(p.size());
        for (size_t i = 0; i < p.size(); ++i) inv[size_t(p[i])] = int64_t(i);
        return x.give(a, [&] { return b.permute(g, inv); });
    }
    default: decline(std::string("no derivative rule for ") + graph::opName(op));
    }
}

// Where a view that selects part of its input came from: per input dim, the first index taken
// and whether the dim is kept in the result (an int index drops it). Step-1 slices only.
struct Window {
    Shape lo, len;
    std::vector<bool> kept;
};
// The gradient of a window: unsqueezed where ints dropped dims, then padded with zeros.
Arg windowGrad(Builder& b, const Arg& g, const Window& w, const Shape& in) {
    Shape withDims;
    for (size_t i = 0; i < in.size(); ++i) withDims.push_back(w.len[i]);
    Arg r = b.reshape(g, withDims);
    Shape widths;
    bool any = false;
    for (size_t i = in.size(); i-- > 0;) {
        widths.push_back(w.lo[i]);
        widths.push_back(in[i] - w.lo[i] - w.len[i]);
        any = any || w.lo[i] != 0 || w.len[i] != in[i];
    }
    return any ? b.pad(r, widths, in) : r;
}

Window fullWindow(const Shape& in) {
    Window w;
    w.lo.assign(in.size(), 0);
    w.len = in;
    w.kept.assign(in.size(), true);
    return w;
}

// x[...] with ints, step-1 slices and an Ellipsis
Window getitemWindow(const Arg& index, const Shape& in) {
    Window w = fullWindow(in);
    std::vector<const graph::Const*> items;
    if (index.kind == Arg::Kind::Tuple) {
        for (auto& it : index.items) {
            if (!it.isConst()) decline("indexing with a tensor or a computed index");
            items.push_back(&it.value);
        }
    } else if (index.isConst()) {
        if (index.value.kind == graph::Const::Kind::Tuple) for (auto& it : index.value.items) items.push_back(&it);
        else items.push_back(&index.value);
    } else {
        decline("indexing with a tensor or a computed index");
    }
    size_t ell = items.size(), used = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i]->kind == graph::Const::Kind::Ellipsis) ell = i;
        else if (items[i]->isNone()) decline("indexing with None");
        else used++;
    }
    if (used > in.size()) decline("too many indices");
    size_t dim = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        const graph::Const& it = *items[i];
        if (i == ell) { dim += in.size() - used; continue; }
        int64_t n = in[dim];
        if (it.isIntLike() && !it.isBool()) {
            int64_t k = it.i < 0 ? it.i + n : it.i;
            w.lo[dim] = k, w.len[dim] = 1, w.kept[dim] = false;
        } else if (it.kind == graph::Const::Kind::Slice) {
            auto bound = [&](const graph::Const& c, int64_t dflt) {
                if (c.isNone()) return dflt;
                if (!c.isInt()) decline("a slice bound that is not an int");
                int64_t k = c.i < 0 ? c.i + n : c.i;
                return std::clamp<int64_t>(k, 0, n);
            };
            if (!it.items[2].isNone() && !(it.items[2].isInt() && it.items[2].i == 1)) decline("a slice with a step");
            int64_t s = bound(it.items[0], 0), e = bound(it.items[1], n);
            w.lo[dim] = s, w.len[dim] = std::max<int64_t>(0, e - s);
        } else {
            decline("an index the gradient rules do not cover");
        }
        ++dim;
    }
    return w;
}

void ruleIndex(Ctx& x, Op op) {
    Builder& b = x.b;
    const Arg* a = x.c.arg(0, "input");
    if (!x.diff(a)) return;
    Shape in = shapeOf(*metaOf(*a));
    if (op == Op::Getitem) {
        if (a->index < 0 && a->node->meta.size() != 1) decline("an item of a tuple taken by a getitem node");
        const Arg* index = x.c.arg(1, nullptr);
        if (!index) decline("indexing without an index");
        return x.give(a, [&] { return windowGrad(b, x.g(), getitemWindow(*index, in), in); });
    }
    if (op == Op::Narrow || op == Op::Select) {
        int64_t dim = constInt(x.c.arg(1, "dim"), 0);
        if (dim < 0) dim += int64_t(in.size());
        Window w = fullWindow(in);
        int64_t start = constInt(x.c.arg(2, op == Op::Narrow ? "start" : "index"), 0);
        if (start < 0) start += in[size_t(dim)];
        w.lo[size_t(dim)] = start;
        w.len[size_t(dim)] = op == Op::Narrow ? constInt(x.c.arg(3, "length"), 0) : 1;
        return x.give(a, [&] { return windowGrad(b, x.g(), w, in); });
    }
    // split / chunk: each item's gradient padded to the input's shape, summed
    int64_t dim = constInt(x.c.arg(2, "dim"), 0);
    if (dim < 0) dim += int64_t(in.size());
    int64_t offset = 0;
    Arg total;
    bool have = false;
    for (size_t i = 0; i < x.c.n.meta.size(); ++i) {
        Shape item = shapeOf(x.c.n.meta[i]);
        Window w = fullWindow(in);
        w.lo[size_t(dim)] = offset;
        w.len[size_t(dim)] = item[size_t(dim)];
        offset += item[size_t(dim)];
        if (i >= x.gradOut.size() || x.gradOut[i].isNoneConst()) continue;
        Arg gi = windowGrad(b, x.gradOut[i], w, in);
        total = have ? b.add(total, gi) : gi;
        have = true;
    }
    if (have) x.give(a, [&] { return total; });
}

// Losses and the ops the backend calls as a library: their rules by target base name.
void ruleMseLoss(Ctx& x) {
    Builder& b = x.b;
    const Arg* in = x.c.arg(0, "input");
    const Arg* t = x.c.arg(1, "target");
    if (!x.c.isNoneOrAbsent(2, "size_average") || !x.c.isNoneOrAbsent(3, "reduce")) decline("mse_loss with size_average or reduce");
    std::string red = constStr(x.c.arg(4, "reduction"), "mean");
    if (!in || !t || !metaOf(*in) || !metaOf(*t) || shapeOf(*metaOf(*in)) != shapeOf(*metaOf(*t))) decline("mse_loss of broadcast operands");
    if (!x.diff(in) && !x.diff(t)) return;
    Shape s = shapeOf(*metaOf(*in));
    Arg d = b.sub(*in, *t);
    double norm = red == "mean" ? 2.0 / double(numel(s)) : 2.0;
    if (red != "mean" && red != "sum" && red != "none") decline("mse_loss with reduction='" + red + "'");
    Arg gi = b.mul(b.mul(d, Builder::num(norm)), x.g());
    x.give(in, [&] { return gi; });
    if (x.diff(t)) x.give(t, [&] { return b.neg(gi); });
}

void ruleCrossEntropy(Ctx& x) {
    Builder& b = x.b;
    const Arg* in = x.c.arg(0, "input");
    const Arg* t = x.c.arg(1, "target");
    if (!x.c.isNoneOrAbsent(2, "weight")) decline("cross_entropy with class weights");
    if (!x.c.isNoneOrAbsent(3, "size_average") || !x.c.isNoneOrAbsent(5, "reduce")) decline("cross_entropy with size_average or reduce");
    if (constNum(x.c.arg(7, "label_smoothing"), 0.0) != 0.0) decline("cross_entropy with label smoothing");
    const int64_t ignore = constInt(x.c.arg(4, "ignore_index"), -100);
    std::string red = constStr(x.c.arg(6, "reduction"), "mean");
    if (!x.diff(in)) return;
    if (!t || !metaOf(*t)) decline("cross_entropy of constant targets");
    Shape s = shapeOf(*metaOf(*in));
    if (s.size() != 2 || metaOf(*t)->dtype != "int64" || (red != "mean" && red != "sum")) decline("cross_entropy other than (N, C) logits with class indices, reduced");
    // d loss / d logits = (softmax - one_hot(target)) * g, over the rows whose target is not
    // ignore_index (0 on the others); the mean divides by the number of those rows. The targets
    // were checked by the forward (eager raises for one outside [0, C) that is not ignored).
    TensorMeta mi = *metaOf(*t);
    mi.shape = {graph::Dim::constant(s[1])};
    Arg classes = b.call("torch.arange", {Arg::integer(s[1])}, mi);
    Arg tcol = b.reshape(*t, {s[0], 1});
    Arg onehot = b.compare("eq", classes, tcol);
    Arg valid = b.compare("ne", tcol, Arg::integer(ignore));
    Arg p = b.call("torch.softmax", {*in, Arg::integer(1)}, *metaOf(*in));
    Arg d = b.sub(p, b.toFloat(onehot, metaOf(*in)->dtype));
    Arg g = x.g();
    if (red == "mean") g = b.div(g, b.sum(b.toFloat(valid, metaOf(*in)->dtype), {0, 1}, false));
    x.give(in, [&] { return b.where(valid, b.mul(d, g), Builder::num(0.0)); });
}

void ruleEmbedding(Ctx& x) {
    Builder& b = x.b;
    const Arg* idx = x.c.arg(0, "input");
    const Arg* w = x.c.arg(1, "weight");
    if (!x.diff(w)) return;
    if (!x.c.isNoneOrAbsent(2, "padding_idx")) decline("embedding with a padding_idx");
    if (!x.c.isNoneOrAbsent(3, "max_norm")) decline("embedding with max_norm");
    if (constInt(x.c.arg(5, "scale_grad_by_freq"), 0) || constInt(x.c.arg(6, "sparse"), 0)) decline("embedding with scale_grad_by_freq or sparse");
    if (!idx || !metaOf(*idx)) decline("embedding of constant indices");
    Shape sw = shapeOf(*metaOf(*w));
    int64_t n = numel(shapeOf(*metaOf(*idx)));
    TensorMeta flatIdx = *metaOf(*idx);
    flatIdx.shape = {graph::Dim::constant(n)};
    Arg i1 = b.call("torch.Tensor.reshape", {*idx, Builder::ints({n})}, flatIdx);
    Arg g2 = b.reshape(x.g(), {n, sw[1]});
    Arg z = b.zeros(sw, metaOf(*w)->dtype);
    TensorMeta m = *metaOf(*w);
    m.requiresGrad = false;
    x.give(w, [&] { return b.call("torch.Tensor.index_add", {z, Arg::integer(0), i1, g2}, m); });
}

// An int or a tuple argument as `n` ints (stride=2 is (2, 2)).
Shape nInts(const Arg* a, size_t n, Shape dflt) {
    if (!a || a->isNoneConst()) return dflt;
    Shape v = intsArg(a);
    if (v.size() == 1) v.assign(n, v[0]);
    if (v.size() != n) decline("a size argument of another length");
    return v;
}

// The output_mask of LibTorch's backward ops: which gradients to compute (a conv whose input
// needs none skips the costliest part, as eager's does).
Arg outputMask(bool a, bool b, bool c) {
    auto word = [](bool v) { return std::string(v ? "True" : "False"); };
    return Arg::lit("(" + word(a) + ", " + word(b) + ", " + word(c) + ")",
                    graph::Const::tuple({graph::Const::boolean(a), graph::Const::boolean(b), graph::Const::boolean(c)}));
}

// conv2d's gradients through LibTorch's convolution_backward (a library call, as the forward is).
void ruleConv2d(Ctx& x) {
    Builder& b = x.b;
    const Arg* in = x.c.arg(0, "input");
    const Arg* w = x.c.arg(1, "weight");
    const Arg* bias = x.c.arg(2, "bias");
    bool hasBias = bias && !bias->isNoneConst();
    bool needX = x.diff(in) != nullptr, needW = x.diff(w) != nullptr, needB = hasBias && x.diff(bias);
    if (!needX && !needW && !needB) return;
    if (!in || !metaOf(*in) || !w || !metaOf(*w)) decline("conv2d of constants");
    if (const Arg* p = x.c.arg(4, "padding"); p && p->isConst() && p->value.isStr()) decline("conv2d with padding='" + p->value.s + "'");
    Shape sx = shapeOf(*metaOf(*in)), sw = shapeOf(*metaOf(*w));
    if (sx.size() != 4) decline("conv2d of an unbatched input");
    Shape stride = nInts(x.c.arg(3, "stride"), 2, {1, 1}), pad = nInts(x.c.arg(4, "padding"), 2, {0, 0});
    Shape dil = nInts(x.c.arg(5, "dilation"), 2, {1, 1});
    int64_t groups = constInt(x.c.arg(6, "groups"), 1);
    TensorMeta mb = *metaOf(*w);
    mb.shape = {graph::Dim::constant(sw[0])};
    const graph::Node* r = b.callTuple("torch._C._nn.convolution_backward",
                                       {x.g(), *in, *w, hasBias ? Builder::ints({sw[0]}) : Arg::none(), Builder::ints(stride), Builder::ints(pad),
                                        Builder::ints(dil), Arg::boolean(false), Builder::ints({0, 0}), Arg::integer(groups),
                                        outputMask(needX, needW, needB)},
                                       {*metaOf(*in), *metaOf(*w), mb});
    if (needX) x.give(in, [&] { return Arg::item(r, 0); });
    if (needW) x.give(w, [&] { return Arg::item(r, 1); });
    if (needB) x.give(bias, [&] { return Arg::item(r, 2); });
}

// max_pool2d's kernel, stride, padding, dilation and ceil_mode as max_pool2d_with_indices takes
// them (the defaults written out).
std::vector<Arg> maxPoolParams(const Call& c) {
    Shape k = nInts(c.arg(1, "kernel_size"), 2, {});
    Shape st = nInts(c.arg(2, "stride"), 2, k), pad = nInts(c.arg(3, "padding"), 2, {0, 0}), dil = nInts(c.arg(4, "dilation"), 2, {1, 1});
    bool ceil = constInt(c.arg(5, "ceil_mode"), 0) != 0;
    return {Builder::ints(k), Builder::ints(st), Builder::ints(pad), Builder::ints(dil), Arg::boolean(ceil)};
}

void checkMaxPool(const Call& c) {
    if (constInt(c.arg(6, "return_indices"), 0)) decline("max_pool2d with return_indices");
    if (shapeOf(*metaOf(*c.arg(0, "input"))).size() != 4) decline("max_pool2d of an unbatched input");
}

// LibTorch's backward of max pooling, given the indices of the maxima.
void maxPoolBackward(Ctx& x, const Arg& in, const std::vector<Arg>& params, const Arg& indices) {
    std::vector<Arg> bwd = {x.g(), in};
    bwd.insert(bwd.end(), params.begin(), params.end());
    bwd.push_back(indices);
    x.give(&in, [&] { return x.b.call("torch._C._nn.max_pool2d_with_indices_backward", bwd, *metaOf(in)); });
}

// max_pool2d left as it was captured (rewriteForward turns it into max_pool2d_with_indices where
// a gradient flows): the indices of the maxima recomputed from the input.
void ruleMaxPool2d(Ctx& x) {
    const Arg* in = x.c.arg(0, "input");
    if (!x.diff(in)) return;
    checkMaxPool(x.c);
    TensorMeta idx = x.c.out();
    idx.dtype = "int64";
    idx.requiresGrad = false;
    TensorMeta o = x.c.out();
    o.requiresGrad = false;
    std::vector<Arg> params = maxPoolParams(x.c);
    std::vector<Arg> fwd = {*in};
    fwd.insert(fwd.end(), params.begin(), params.end());
    const graph::Node* r = x.b.callTuple("torch._C._nn.max_pool2d_with_indices", fwd, {o, idx});
    maxPoolBackward(x, *in, params, Arg::item(r, 1));
}

// The forward's max_pool2d_with_indices (written by rewriteForward): its indices, saved.
void ruleMaxPool2dWithIndices(Ctx& x) {
    const Arg* in = x.c.arg(0, "input");
    if (!x.diff(in)) return;
    std::vector<Arg> params(x.c.n.args.begin() + 1, x.c.n.args.end());
    maxPoolBackward(x, *in, params, Arg::item(&x.c.n, 1));
}

struct BatchNormArgs {
    const Arg *in, *rm, *rv, *w, *bias;
    bool hasW, hasB, needX, needW, needB, training;
    double eps;
    int64_t channels;
};

BatchNormArgs batchNormArgs(const Call& c, const NeedsGrad& needsGrad) {
    BatchNormArgs a;
    a.in = c.arg(0, "input"), a.rm = c.arg(1, "running_mean"), a.rv = c.arg(2, "running_var");
    a.w = c.arg(3, "weight"), a.bias = c.arg(4, "bias");
    a.hasW = a.w && !a.w->isNoneConst(), a.hasB = a.bias && !a.bias->isNoneConst();
    a.needX = a.in && needsGrad(*a.in), a.needW = a.hasW && needsGrad(*a.w), a.needB = a.hasB && needsGrad(*a.bias);
    if (!a.needX && !a.needW && !a.needB) return a;
    if (!a.in || !metaOf(*a.in)) decline("batch_norm of a constant");
    if (a.hasW && !metaOf(*a.w)) decline("batch_norm with a constant weight");
    const Arg* tr = c.arg(5, "training");
    if (tr && !tr->isConst()) decline("batch_norm with a computed training flag");
    a.training = tr && tr->value.truth();
    a.eps = constNum(c.arg(7, "eps"), 1e-5);
    Shape sx = shapeOf(*metaOf(*a.in));
    if (sx.size() < 2) decline("batch_norm of a 1-D input");
    a.channels = sx[1];
    return a;
}

// native_batch_norm_backward (one library call) given the statistics the forward normalized with.
void batchNormBackward(Ctx& x, const BatchNormArgs& a, const Arg& runMean, const Arg& runVar, const Arg& mean, const Arg& invstd) {
    TensorMeta mc = *metaOf(*a.in);
    mc.shape = {graph::Dim::constant(a.channels)};
    const graph::Node* r = x.b.callTuple("torch._C._nn.native_batch_norm_backward",
                                         {x.g(), *a.in, a.hasW ? *a.w : Arg::none(), runMean, runVar, mean, invstd, Arg::boolean(a.training),
                                          Builder::num(a.eps), outputMask(a.needX, a.needW, a.needB)},
                                         {*metaOf(*a.in), mc, mc});
    if (a.needX) x.give(a.in, [&] { return Arg::item(r, 0); });
    if (a.needW) x.give(a.w, [&] { return Arg::item(r, 1); });
    if (a.needB) x.give(a.bias, [&] { return Arg::item(r, 2); });
}

// batch_norm as captured: in eval mode the running statistics; in training mode (where
// rewriteForward did not make it native_batch_norm) the batch's mean and 1/std recomputed.
void ruleBatchNorm(Ctx& x) {
    BatchNormArgs a = batchNormArgs(x.c, x.needsGrad);
    if (!a.needX && !a.needW && !a.needB) return;
    Builder& b = x.b;
    if (a.training) {
        Shape sx = shapeOf(*metaOf(*a.in));
        Shape chan(sx.size(), 1);
        chan[1] = sx[1];
        std::vector<int64_t> dims;
        for (size_t i = 0; i < sx.size(); ++i)
            if (i != 1) dims.push_back(int64_t(i));
        Arg mean = b.mean(*a.in, dims, false);
        Arg xc = b.sub(*a.in, b.reshape(mean, chan));
        Arg invstd = b.unary("rsqrt", b.add(b.mean(b.mul(xc, xc), dims, false), Builder::num(a.eps)));
        batchNormBackward(x, a, Arg::none(), Arg::none(), mean, invstd);
        return;
    }
    if (!a.rm || !a.rv || !metaOf(*a.rm) || !metaOf(*a.rv)) decline("batch_norm in eval mode without running statistics");
    batchNormBackward(x, a, *a.rm, *a.rv, Arg::none(), Arg::none());
}

// The forward's native_batch_norm (written by rewriteForward, training mode): its saved mean and
// 1/std. Its arguments are batch_norm's in native_batch_norm's order.
void ruleNativeBatchNorm(Ctx& x) {
    const graph::Node& n = x.c.n;
    graph::Node asCaptured = n; // batch_norm's argument order, for batchNormArgs
    asCaptured.args = {n.args[0], n.args[3], n.args[4], n.args[1], n.args[2], n.args[5], n.args[6], n.args[7]};
    asCaptured.kwargs.clear();
    BatchNormArgs a = batchNormArgs(Call{asCaptured}, x.needsGrad);
    if (!a.needX && !a.needW && !a.needB) return;
    batchNormBackward(x, a, Arg::none(), Arg::none(), Arg::item(&n, 1), Arg::item(&n, 2));
}

// dropout in eval mode or with p = 0 passes its input through. In training mode with 0 < p < 1
// rewriteForward made it dropout_with_noise (dropout.cpp), below; what is left here draws no mask
// the backward could read.
void ruleDropout(Ctx& x) {
    const Arg* tr = x.c.arg(2, "training");
    if (!tr) tr = x.c.arg(2, "train");
    bool training = !tr || !tr->isConst() || tr->value.truth();
    if (training && constNum(x.c.arg(1, "p"), 0.5) != 0.0) decline("dropout in training mode with a computed p or training flag, or p = 1");
    x.give(x.c.arg(0, "input"), [&] { return x.g(); });
}

// dropout_with_noise(x, p) -> (x * noise, noise): the gradient is grad * noise, as eager's
// dropout (input * noise) differentiates.
void ruleDropoutWithNoise(Ctx& x) {
    Arg g = x.g();
    if (g.isNoneConst()) return;
    x.give(x.c.arg(0, "input"), [&] { return x.b.mul(g, Arg::item(&x.c.n, 1)); });
}

const std::map<std::string, void (*)(Ctx&)>& namedRules() {
    static const std::map<std::string, void (*)(Ctx&)> rules = {
        {"mse_loss", ruleMseLoss}, {"cross_entropy", ruleCrossEntropy}, {"embedding", ruleEmbedding},
        {"conv2d", ruleConv2d},     {"max_pool2d", ruleMaxPool2d},         {"batch_norm", ruleBatchNorm},
        {"max_pool2d_with_indices", ruleMaxPool2dWithIndices}, {"native_batch_norm", ruleNativeBatchNorm},
        {"dropout_with_noise", ruleDropoutWithNoise}};
    return rules;
}

} // namespace

bool rewriteForward(graph::Node& fwd, const NeedsGrad& needsGrad) {
    if (fwd.kind != graph::NodeKind::Call || fwd.meta.size() != 1) return false;
    Call c{fwd};
    const std::string base = graph::baseName(fwd.target);
    try {
        if (base == "dropout") return rewriteDropout(fwd, needsGrad);
        if (base == "max_pool2d") {
            const Arg* in = c.arg(0, "input");
            if (!in || !needsGrad(*in) || !metaOf(*in)) return false;
            checkMaxPool(c);
            std::vector<Arg> args = {*in};
            for (auto& p : maxPoolParams(c)) args.push_back(p);
            TensorMeta idx = fwd.meta[0];
            idx.dtype = "int64";
            idx.requiresGrad = false;
            fwd.target = "torch._C._nn.max_pool2d_with_indices";
            fwd.args = std::move(args);
            fwd.kwargs.clear();
            fwd.meta.push_back(idx);
            return true;
        }
        if (base == "batch_norm" && graph::opOfTarget(fwd.target)) {
            BatchNormArgs a = batchNormArgs(c, needsGrad);
            if ((!a.needX && !a.needW && !a.needB) || !a.training) return false;
            const Arg* mom = c.arg(6, "momentum");
            if (mom && !mom->isConst()) return false;
            auto orNone = [](const Arg* x) { return x ? *x : Arg::none(); };
            std::vector<Arg> args = {*a.in, orNone(a.w), orNone(a.bias), orNone(a.rm), orNone(a.rv), Arg::boolean(true),
                                     mom ? *mom : Builder::num(0.1), Builder::num(a.eps)};
            TensorMeta stat = fwd.meta[0];
            stat.shape = {graph::Dim::constant(a.channels)};
            stat.requiresGrad = false;
            fwd.target = "torch.native_batch_norm";
            fwd.args = std::move(args);
            fwd.kwargs.clear();
            fwd.meta.push_back(stat);
            fwd.meta.push_back(stat);
            return true;
        }
    } catch (Unsupported&) {
    }
    return false;
}

bool differentiate(Builder& b, const graph::Node& fwd, const std::vector<Arg>& gradOut, const NeedsGrad& needsGrad,
                   std::vector<InputGrad>& out, std::string& why) {
    Ctx x{b, Call{fwd}, gradOut, needsGrad, out};
    try {
        if (graph::mutatesInPlace(fwd.target, false)) decline("an in-place op: " + fwd.target);
        for (auto& [k, a] : fwd.kwargs)
            if (k == "inplace" && a.isConst() && a.value.truth()) decline("an in-place op: " + fwd.target);
        std::string base = graph::baseName(fwd.target);
        if (auto it = namedRules().find(base); it != namedRules().end()) {
            it->second(x);
            return true;
        }
        std::optional<Op> op = graph::opOfTarget(fwd.target);
        if (!op) decline("no derivative rule for " + fwd.target);
        if (*op == Op::Dropout) { ruleDropout(x); return true; }
        switch (graph::info(*op).family) {
        case graph::Family::UnaryMath: case graph::Family::Activation: case graph::Family::Arith: case graph::Family::Select:
            rulePointwise(x, *op);
            return true;
        case graph::Family::Compare: case graph::Family::Logical: case graph::Family::Generate: return true; // no gradient flows
        case graph::Family::Convert: ruleConvert(x, *op); return true;
        case graph::Family::Reduce: ruleReduce(x, *op); return true;
        case graph::Family::Normalize: ruleNormalize(x, *op); return true;
        case graph::Family::Matmul: ruleMatmul(x, *op); return true;
        case graph::Family::Reshape: ruleView(x, *op); return true;
        case graph::Family::Index: ruleIndex(x, *op); return true;
        default: decline("no derivative rule for " + fwd.target);
        }
    } catch (Unsupported& u) {
        why = u.why;
        return false;
    }
}

std::vector<std::string> ruleNames() {
    std::vector<std::string> r = {"mse_loss", "cross_entropy", "embedding", "dropout", "dropout_with_noise", "conv2d", "max_pool2d", "batch_norm"};
    for (const char* n : {"add", "radd", "sub", "rsub", "mul", "rmul", "div", "neg", "exp", "log", "sqrt", "rsqrt", "sigmoid", "tanh",
                          "sin", "cos", "relu", "square", "pow", "leaky_relu", "clamp", "clamp_min", "clamp_max", "gelu", "silu", "where",
                          "masked_fill", "to", "float", "type_as", "clone", "sum", "mean", "softmax", "log_softmax", "layer_norm",
                          "matmul", "mm", "bmm", "linear", "view", "reshape", "flatten", "transpose", "t", "permute", "unsqueeze",
                          "squeeze", "expand", "contiguous", "detach", "getitem", "narrow", "select", "split", "chunk"})
        r.push_back(n);
    std::sort(r.begin(), r.end());
    return r;
}

} // namespace fl::autograd::detail
