#include "core/lower/ir.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace fl::lower {

// ------------------------------------------------------------------ integer expressions
static IE make(IExpr::Kind k, IE a, IE b) {
    auto e = std::make_shared<IExpr>();
    e->kind = k;
    e->a = std::move(a);
    e->b = std::move(b);
    return e;
}
IE iconst(int64_t v) { auto e = std::make_shared<IExpr>(); e->kind = IExpr::Const; e->c = v; return e; }
IE isym(const std::string& s) { auto e = std::make_shared<IExpr>(); e->kind = IExpr::Sym; e->name = s; return e; }
IE ivar(const std::string& v) { auto e = std::make_shared<IExpr>(); e->kind = IExpr::Var; e->name = v; return e; }
IE ivalue(SE v) { auto e = std::make_shared<IExpr>(); e->kind = IExpr::Value; e->v = std::move(v); return e; }
bool hasValue(const IE& e) {
    if (!e) return false;
    return e->kind == IExpr::Value || hasValue(e->a) || hasValue(e->b);
}
bool constValue(const IE& e, int64_t& v) {
    if (e->kind != IExpr::Const) return false;
    v = e->c;
    return true;
}
bool isConst(const IE& e, int64_t v) { return e->kind == IExpr::Const && e->c == v; }

IE iadd(IE a, IE b) {
    int64_t x, y;
    if (constValue(a, x) && constValue(b, y)) return iconst(x + y);
    if (isConst(a, 0)) return b;
    if (isConst(b, 0)) return a;
    if (a->kind == IExpr::Const) std::swap(a, b); // constants last
    // (e + c1) + c2 -> e + (c1 + c2)
    if (b->kind == IExpr::Const && a->kind == IExpr::Add && a->b->kind == IExpr::Const) return iadd(a->a, iconst(a->b->c + b->c));
    return make(IExpr::Add, a, b);
}
IE imul(IE a, IE b) {
    int64_t x, y;
    if (constValue(a, x) && constValue(b, y)) return iconst(x * y);
    if (isConst(a, 0) || isConst(b, 0)) return iconst(0);
    if (isConst(a, 1)) return b;
    if (isConst(b, 1)) return a;
    if (a->kind == IExpr::Const) std::swap(a, b); // e * c
    if (b->kind == IExpr::Const && a->kind == IExpr::Mul && a->b->kind == IExpr::Const) return imul(a->a, iconst(a->b->c * b->c));
    return make(IExpr::Mul, a, b);
}
IE idiv(IE a, IE b) {
    int64_t x, y;
    if (constValue(a, x) && constValue(b, y) && y != 0) return iconst(x / y);
    if (isConst(b, 1)) return a;
    if (isConst(a, 0)) return a;
    return make(IExpr::Div, a, b);
}
IE imod(IE a, IE b) {
    int64_t x, y;
    if (constValue(a, x) && constValue(b, y) && y != 0) return iconst(x % y);
    if (isConst(b, 1)) return iconst(0);
    if (isConst(a, 0)) return a;
    return make(IExpr::Mod, a, b);
}

IE imin(IE a, IE b) {
    int64_t x, y;
    if (constValue(a, x) && constValue(b, y)) return iconst(std::min(x, y));
    if (sameExpr(a, b)) return a;
    return make(IExpr::Min, a, b);
}
IE imax(IE a, IE b) {
    int64_t x, y;
    if (constValue(a, x) && constValue(b, y)) return iconst(std::max(x, y));
    if (sameExpr(a, b)) return a;
    return make(IExpr::Max, a, b);
}
IE iclamp(IE a, int64_t lo, IE hi) { return imin(imax(std::move(a), iconst(lo)), std::move(hi)); }

bool sameExpr(const IE& a, const IE& b) {
    if (a == b) return true;
    if (!a || !b || a->kind != b->kind) return false;
    switch (a->kind) {
    case IExpr::Const: return a->c == b->c;
    case IExpr::Sym:
    case IExpr::Var: return a->name == b->name;
    case IExpr::Value: return sstr(a->v) == sstr(b->v);
    default: return sameExpr(a->a, b->a) && sameExpr(a->b, b->b);
    }
}

IE substitute(const IE& e, const std::map<std::string, IE>& vars) {
    switch (e->kind) {
    case IExpr::Const:
    case IExpr::Sym: return e;
    case IExpr::Var: {
        auto it = vars.find(e->name);
        return it == vars.end() ? e : it->second;
    }
    case IExpr::Add: return iadd(substitute(e->a, vars), substitute(e->b, vars));
    case IExpr::Mul: return imul(substitute(e->a, vars), substitute(e->b, vars));
    case IExpr::Div: return idiv(substitute(e->a, vars), substitute(e->b, vars));
    case IExpr::Mod: return imod(substitute(e->a, vars), substitute(e->b, vars));
    case IExpr::Value: return ivalue(ssubstitute(e->v, vars));
    case IExpr::Min: return imin(substitute(e->a, vars), substitute(e->b, vars));
    case IExpr::Max: return imax(substitute(e->a, vars), substitute(e->b, vars));
    }
    return e;
}

std::string str(const IE& e) {
    switch (e->kind) {
    case IExpr::Const: return std::to_string(e->c);
    case IExpr::Sym:
    case IExpr::Var: return e->name;
    case IExpr::Add: return "(" + str(e->a) + " + " + str(e->b) + ")";
    case IExpr::Mul: return str(e->a) + "*" + str(e->b);
    case IExpr::Div:
    case IExpr::Mod: {
        // a product on the right needs its own parentheses: q / (s0*8), not q / s0*8
        std::string rhs = e->b->kind == IExpr::Mul ? "(" + str(e->b) + ")" : str(e->b);
        return "(" + str(e->a) + (e->kind == IExpr::Div ? " / " : " % ") + rhs + ")";
    }
    case IExpr::Value: return "{" + sstr(e->v) + "}";
    case IExpr::Min:
    case IExpr::Max: {
        std::string a = str(e->a), b = str(e->b);
        return "(" + a + (e->kind == IExpr::Min ? " < " : " > ") + b + " ? " + a + " : " + b + ")";
    }
    }
    return "?";
}

int64_t evaluate(const IE& e, const std::map<std::string, int64_t>& env) {
    switch (e->kind) {
    case IExpr::Const: return e->c;
    case IExpr::Sym:
    case IExpr::Var: {
        auto it = env.find(e->name);
        return it == env.end() ? 0 : it->second;
    }
    case IExpr::Add: return evaluate(e->a, env) + evaluate(e->b, env);
    case IExpr::Mul: return evaluate(e->a, env) * evaluate(e->b, env);
    case IExpr::Div: { int64_t d = evaluate(e->b, env); return d ? evaluate(e->a, env) / d : 0; }
    case IExpr::Mod: { int64_t d = evaluate(e->b, env); return d ? evaluate(e->a, env) % d : 0; }
    case IExpr::Value: throw std::logic_error("an index read from data has no value at compile time");
    case IExpr::Min: return std::min(evaluate(e->a, env), evaluate(e->b, env));
    case IExpr::Max: return std::max(evaluate(e->a, env), evaluate(e->b, env));
    }
    return 0;
}

IE product(const std::vector<IE>& dims, size_t from, size_t to) {
    IE p = iconst(1);
    for (size_t i = from; i < dims.size() && i < to; ++i) p = imul(p, dims[i]);
    return p;
}

std::string shapeStr(const Shape& s) {
    std::string r = "[";
    for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + str(s[i]);
    return r + "]";
}
bool sameShape(const Shape& a, const Shape& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!sameExpr(a[i], b[i])) return false;
    return true;
}

std::vector<IE> contiguousStrides(const Shape& shape) {
    std::vector<IE> st(shape.size());
    IE acc = iconst(1);
    for (size_t i = shape.size(); i-- > 0;) {
        st[i] = acc;
        acc = imul(acc, shape[i]);
    }
    return st;
}

// ------------------------------------------------------------------ scalar expressions
const char* ctype(DType d) { return d == DType::F32 ? "float" : d == DType::Bool ? "bool" : "long"; }
const char* dtypeName(DType d) { return d == DType::F32 ? "float32" : d == DType::Bool ? "bool" : "int64"; }
const char* kindName(NodeKind k) {
    switch (k) {
    case NodeKind::Input: return "input";
    case NodeKind::Pointwise: return "pointwise";
    case NodeKind::Reduction: return "reduction";
    case NodeKind::Extern: return "extern";
    case NodeKind::Fallback: return "fallback";
    }
    return "?";
}

SE sload(int buffer, std::vector<IE> index, DType dt) {
    auto e = std::make_shared<SExpr>();
    e->kind = SExpr::Load;
    e->buffer = buffer;
    e->index = std::move(index);
    e->dtype = dt;
    return e;
}
SE sconst(double v, DType dt) {
    auto e = std::make_shared<SExpr>();
    e->kind = SExpr::Const;
    e->c = v;
    e->dtype = dt;
    return e;
}
SE scall(Op op, std::vector<SE> args, DType dt) {
    auto e = std::make_shared<SExpr>();
    e->kind = SExpr::Call;
    e->op = op;
    e->args = std::move(args);
    e->dtype = dt;
    return e;
}
SE swhere(SE c, SE a, SE b) {
    auto e = std::make_shared<SExpr>();
    e->kind = SExpr::Where;
    e->dtype = a->dtype;
    e->args = {std::move(c), std::move(a), std::move(b)};
    return e;
}
SE scast(SE a, DType dt) {
    if (a->dtype == dt) return a;
    if (a->kind == SExpr::Const) return sconst(dt == DType::Bool ? (a->c != 0) : dt == DType::I64 ? std::trunc(a->c) : a->c, dt);
    auto e = std::make_shared<SExpr>();
    e->kind = SExpr::Cast;
    e->dtype = dt;
    e->args = {std::move(a)};
    return e;
}
SE sindex(IE i) {
    auto e = std::make_shared<SExpr>();
    e->kind = SExpr::Index;
    e->dtype = DType::I64;
    e->index = {std::move(i)};
    return e;
}

SE ssubstitute(const SE& e, const std::map<std::string, IE>& vars) {
    if (e->kind == SExpr::Const || e->kind == SExpr::Scalar) return e;
    auto r = std::make_shared<SExpr>(*e);
    for (auto& i : r->index) i = substitute(i, vars);
    for (auto& a : r->args) a = ssubstitute(a, vars);
    return r;
}

static void indexValuesOf(const IE& e, std::vector<SE>& out) {
    if (!e) return;
    if (e->kind == IExpr::Value) out.push_back(e->v);
    indexValuesOf(e->a, out);
    indexValuesOf(e->b, out);
}
std::vector<SE> indexValues(const SExpr& load) {
    std::vector<SE> out;
    for (auto& i : load.index) indexValuesOf(i, out);
    return out;
}

void collectLoads(const SE& e, std::vector<const SExpr*>& out) {
    if (e->kind == SExpr::Load) {
        out.push_back(e.get());
        for (auto& v : indexValues(*e)) collectLoads(v, out);
    }
    for (auto& a : e->args) collectLoads(a, out);
}

std::string sstr(const SE& e) {
    std::ostringstream o;
    o.precision(17); // constants told apart to the last bit (sameExpr compares these texts)
    switch (e->kind) {
    case SExpr::Load: {
        o << "b" << e->buffer << "[";
        for (size_t i = 0; i < e->index.size(); ++i) o << (i ? ", " : "") << str(e->index[i]);
        o << "]";
        return o.str();
    }
    case SExpr::Const: o << dtypeName(e->dtype) << "(" << e->c << ")"; return o.str();
    case SExpr::Scalar: return "scalar" + std::to_string(e->buffer);
    case SExpr::Index: return "index(" + str(e->index[0]) + ")";
    case SExpr::Call: o << graph::opName(e->op); break;
    case SExpr::Where: o << "where"; break;
    case SExpr::Cast: o << "to_" << dtypeName(e->dtype); break;
    }
    o << "(";
    for (size_t i = 0; i < e->args.size(); ++i) o << (i ? ", " : "") << sstr(e->args[i]);
    o << ")";
    return o.str();
}

} // namespace fl::lower
