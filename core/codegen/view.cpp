#include "core/codegen/view.h"

#include <cmath>
#include <cstdio>
#include <map>

#include "core/graph/ops.h"

namespace fl::codegen::view {

using namespace lower;

bool costlyCall(Op op) { return graph::info(op).costly() && graph::info(op).kernel(); }
std::string mathName(Op op) { return std::string("fl_") + graph::opName(op); }

std::string valueKey(const SE& e) {
    std::string k;
    switch (e->kind) {
    case SExpr::Load:
        k = "L" + std::to_string(e->buffer) + "[";
        for (auto& i : e->index) k += str(i) + ",";
        return k + "]";
    case SExpr::Const: return "C" + std::to_string(int(e->dtype)) + ":" + floatLiteral(e->c);
    case SExpr::Scalar: return "S" + std::to_string(e->buffer);
    case SExpr::Index: return "I" + str(e->index[0]);
    case SExpr::Call: k = std::string("F") + graph::opName(e->op); break;
    case SExpr::Where: k = "W"; break;
    case SExpr::Cast: k = "T" + std::to_string(int(e->dtype)); break;
    }
    k += "(";
    for (auto& a : e->args) k += valueKey(a) + ",";
    return k + ")";
}

std::string floatLiteral(double v) {
    if (std::isnan(v)) return "__builtin_nanf(\"\")";
    if (std::isinf(v)) return v > 0 ? "__builtin_inff()" : "(-__builtin_inff())";
    char b[64];
    std::snprintf(b, sizeof b, "%.9g", v);
    std::string s = b;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s + "f";
}

bool exactReciprocal(const SE& e) {
    if (e->kind != SExpr::Const || !(e->c > 0) || std::isinf(e->c)) return false;
    int ex;
    return std::frexp(e->c, &ex) == 0.5;
}

bool nonNanLiteral(const SE& e) { return e->kind == SExpr::Const && e->dtype == DType::F32 && !std::isnan(e->c); }

bool dataFree(const SE& e) {
    if (e->kind == SExpr::Load || e->kind == SExpr::Scalar) return false;
    for (auto& a : e->args)
        if (!dataFree(a)) return false;
    return true;
}

bool sumOfProducts(const Node& reduction, const SE& body) {
    return reduction.reduceOp == Op::Sum && body->kind == SExpr::Call && body->op == Op::MulUnrounded;
}

SE loadedBody(const Program& p, const SE& load) {
    std::map<std::string, IE> sub;
    for (size_t i = 0; i < load->index.size(); ++i) sub["x" + std::to_string(i)] = load->index[i];
    return ssubstitute(p.nodes[load->buffer].body, sub);
}

SE placedBody(const Node& n, const fuse::Domain& d) { return ssubstitute(n.body, fuse::place(n, d).vars); }

std::vector<IE> outCoords(const Node& n, const fuse::Domain& d) {
    fuse::Placement pl = fuse::place(n, d);
    std::vector<IE> c;
    if (n.kind == NodeKind::Reduction) {
        c.assign(n.shape.size(), iconst(0));
        for (size_t k = 0; k < n.keptPos.size(); ++k) c[n.keptPos[k]] = pl.vars.at("x" + std::to_string(k));
        return c;
    }
    for (size_t i = 0; i < n.shape.size(); ++i) c.push_back(pl.vars.at("x" + std::to_string(i)));
    return c;
}

IE offsetExpr(const Program& p, int n, const std::vector<IE>& coords) {
    const Node& b = p.nodes[n];
    std::vector<IE> st = b.kind == NodeKind::Input || !b.strides.empty() ? b.strides : contiguousStrides(b.shape);
    IE off = iconst(0);
    for (size_t i = 0; i < coords.size() && i < st.size(); ++i) off = iadd(off, imul(coords[i], st[i]));
    return off;
}

bool unitStride(const Program& p, const fuse::Domain& d, const IE& off, const std::string& var) {
    if (hasValue(off)) return false; // a gather: where it reads depends on the data
    std::map<std::string, int64_t> e0, e1;
    for (size_t i = 0; i < d.outer.size(); ++i) e0["x" + std::to_string(i)] = 1;
    for (auto& sym : p.symbols) e0[sym] = 7;
    e1 = e0;
    e0[var] = 0, e1[var] = 1;
    return evaluate(off, e1) - evaluate(off, e0) == 1;
}

int64_t perLine(DType t) { return 64 / (t == DType::F32 ? 4 : t == DType::Bool ? 1 : 8); }

std::string reducedVar(const fuse::Domain& d) { return "r" + std::to_string(d.inner.size() - 1); }

} // namespace fl::codegen::view
