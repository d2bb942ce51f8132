// The C++ emitter (see codegen.h): prints a kernel from its plan (plan.h). Every choice of what to
// print is the plan's; what is left here is the printing: names of temporaries and buffers, the
// loop nests, the argument list, the math helpers a kernel calls.
#include "core/codegen/codegen.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/codegen/kmath.h"
#include "core/codegen/view.h"
#include "core/graph/ops.h"

namespace fl::codegen {

using namespace lower;
using fuse::Domain;
using fuse::Group;

namespace {

// Copies a row computed in a local array to the output. Under clang, with non-temporal stores
// when the destination is 64-byte aligned: an ordinary store first reads the line it writes
// (a third memory stream next to the input and the output), a non-temporal one does not. The
// kernel ends with a fence, so the rows are in memory before the runtime hands the output on.
const char* kStreamRow = R"(
// n floats (a multiple of 16) from a 64-byte aligned row to dst, past the caches when dst is aligned.
static inline void fl_stream_row(float* __restrict dst, const float* __restrict src, long n) {
#if defined(__clang__)
    typedef float fl_v16 __attribute__((vector_size(64), may_alias));
    if (((unsigned long)dst & 63) == 0) {
        for (long i = 0; i < n; i += 16) __builtin_nontemporal_store(*(const fl_v16*)&src[i], (fl_v16*)&dst[i]);
        return;
    }
#endif
    for (long i = 0; i < n; ++i) dst[i] = src[i];
}
)";

// The C++ operator a kernel op prints as, or null.
const char* infixSymbol(Op op) {
    switch (op) {
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul:
    case Op::MulUnrounded: return "*"; // rounded where it is not a summed body
    case Op::Div:
    case Op::DivGe1: return "/";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::And: return "&";
    case Op::Or: return "|";
    default: return nullptr;
    }
}

std::string literal(const SExpr& e) {
    switch (e.dtype) {
    case DType::F32: return view::floatLiteral(e.c);
    case DType::Bool: return e.c != 0 ? "true" : "false";
    case DType::I64: return std::to_string(int64_t(e.c)) + "L";
    }
    return "0";
}

// The pragma a loop that the plan interleaves gets ("" for none).
std::string interleavePragma(const std::string& costlyCall, const std::string& indent) {
    return costlyCall.empty() ? std::string() : indent + "#pragma clang loop interleave_count(4)\n";
}

struct Scope {
    std::string indent;
    std::string* out;
    std::map<std::string, std::string> cse; // right-hand side -> temporary
    Scope* parent = nullptr;                // values of enclosing scopes are visible here
    std::string find(const std::string& rhs) const {
        for (const Scope* s = this; s; s = s->parent) {
            auto it = s->cse.find(rhs);
            if (it != s->cse.end()) return it->second;
        }
        return {};
    }
};

class KernelWriter {
public:
    KernelWriter(const Program& p, const fuse::Schedule& s, const KernelPlan& plan)
        : p_(p), s_(s), plan_(plan), g_(s.groups.at(plan.group)), members_(g_.nodes.begin(), g_.nodes.end()) {}

    Kernel write(const std::string& name) {
        Kernel k;
        k.name = name;
        k.group = g_.id;
        k.nodes = g_.nodes;
        k.rows = plan_.rows;
        k.costPerRow = plan_.costPerRow;
        const std::string body = plan_.reduction ? reductionBody() : pointwiseBody();
        k.buffers = buffers_;
        k.writes = writes_;
        k.plan = namedChoices();
        k.source = source(name, body);
        return k;
    }

private:
    const Program& p_;
    const fuse::Schedule& s_;
    const KernelPlan& plan_;
    const Group& g_;
    std::set<int> members_;
    std::vector<int> buffers_;
    std::vector<bool> writes_;
    std::set<std::string> math_, symbolsUsed_;
    std::set<int> scalarsUsed_;
    std::map<int, std::string> redVar_;
    int tmp_ = 0;
    Scope* rowScope_ = nullptr;                 // a reduction kernel's per-row scope
    int stage_ = 0;                             // the reduction kernel's loop being written (1, 2, ...)
    std::string rowVar_;                        // its innermost loop variable, where kept values are stored
    std::map<std::string, std::string> preset_; // valueKey(load) -> what stands for it (a two-stage loop's block array)
    std::map<size_t, std::string> operandNames_; // plan choice -> the printed name of its operand

    // ------------------------------------------------------------------ the kernel's source
    std::string source(const std::string& name, const std::string& body) {
        const Domain& d = g_.domain;
        std::ostringstream src;
        src << "// " << name << ": " << summary() << "\n";
        src << "// loops: rows " << shapeStr(d.outer);
        if (d.isReduction()) src << ", reduced " << shapeStr(d.inner);
        src << "\n// graph nodes:\n";
        for (int n : g_.nodes) {
            const Node& nd = p_.nodes[n];
            src << "//   " << nd.name << " = " << nd.what << " " << dtypeName(nd.dtype) << shapeStr(nd.shape);
            if (!nd.opText.empty()) src << "  <- " << nd.opText;
            if (nd.line) src << " at " << nd.file << ":" << nd.line;
            if (!nd.modulePath.empty()) src << " (" << nd.modulePath << ")";
            src << (s_.stored[n] ? "  [stored]" : "  [inlined]") << "\n";
        }
        // sin and cos reduce their arguments by Cody-Waite below 2^20 and by Payne-Hanek above,
        // which costs about 5x the rest (vpmuludq chains on 64-bit lanes). Such a kernel runs a
        // version with the first only (fl_sin_fast), which notes whether any argument reached
        // 2^20, and then, only if one did, the full version over the same rows. A kernel never
        // reads what it writes, so running it twice gives the same outputs.
        const bool versioned = plan_.versioned;
        std::string fastBody;
        if (versioned) {
            fastBody = body;
            for (const char* fn : {"fl_sin", "fl_cos"}) {
                const std::string from = std::string(fn) + "(", to = std::string(fn) + "_fast(fl_big, ";
                for (size_t at = fastBody.find(from); at != std::string::npos; at = fastBody.find(from, at + to.size()))
                    fastBody.replace(at, from.size(), to);
                if (math_.count(fn)) math_.insert(std::string(fn) + "_fast");
            }
        }
        std::string math = kernelMath(std::vector<std::string>(math_.begin(), math_.end()));
        if (!math.empty()) src << math << "\n";
        if (plan_.streams()) src << kStreamRow << "\n";
        if (versioned) rowsFunction(src, name + "_rows_fast", fastBody, true);
        rowsFunction(src, name + "_rows", body, false);
        std::string args;
        for (size_t i = 0; i < buffers_.size(); ++i)
            args += "(" + std::string(writes_[i] ? "" : "const ") + ctype(p_.nodes[buffers_[i]].dtype) + "*)bufs[" + std::to_string(i) + "], ";
        args += "sym, scal, begin, end";
        src << "extern \"C\" void " << name << "(void* const* bufs, const long* sym, const float* scal, long begin, long end) {\n";
        if (versioned) src << "    if (" << name << "_rows_fast(" << args << ")) // again, reducing the large arguments by Payne-Hanek\n    ";
        src << "    " << name << "_rows(" << args << ");\n}\n";
        return src.str();
    }

    // The loops live in a function of pointer parameters: restrict-qualified parameters tell the
    // compiler that the buffers do not overlap (on local pointers it ignores that), so it keeps
    // accumulators in registers and adds no run-time overlap checks.
    void rowsFunction(std::ostringstream& src, const std::string& fn, const std::string& loops, bool fast) const {
        src << "static " << (fast ? "bool " : "void ") << fn << "(\n";
        for (size_t i = 0; i < buffers_.size(); ++i) {
            const Node& b = p_.nodes[buffers_[i]];
            src << "    " << (writes_[i] ? "" : "const ") << ctype(b.dtype) << "* __restrict " << b.name << ",  // " << (writes_[i] ? "out " : "in ")
                << dtypeName(b.dtype) << shapeStr(b.shape) << "\n";
        }
        src << "    const long* sym, const float* scal, long begin, long end) {\n";
        for (size_t i = 0; i < p_.symbols.size(); ++i)
            if (symbolsUsed_.count(p_.symbols[i])) src << "    const long " << p_.symbols[i] << " = sym[" << i << "];\n";
        if (scalarsUsed_.empty()) src << "    (void)scal;\n";
        if (symbolsUsed_.empty()) src << "    (void)sym;\n";
        std::map<std::string, std::string> constants; // literal -> its opaque copy, in literal order
        for (size_t i = 0; i < plan_.opaqueConstants.size(); ++i) constants[plan_.opaqueConstants[i]] = "fl_k" + std::to_string(i);
        for (auto& [literal, name] : constants) src << "    const float " << name << " = fl_opaque(" << literal << ");\n";
        if (fast) src << "    bool fl_big = false; // an argument of sin or cos reached 2^20\n";
        src << loops;
        if (plan_.streams()) src << "#if defined(__clang__)\n    __atomic_thread_fence(__ATOMIC_SEQ_CST); // the streamed rows reach memory\n#endif\n";
        if (fast) src << "    return fl_big;\n";
        src << "}\n\n";
    }

    // The plan's choices as this source names them: a row value's operand (kOperand) by its name
    // here (left as it is where nothing printed it). A choice that reads the same as one before
    // it is listed once.
    std::vector<Choice> namedChoices() const {
        std::vector<Choice> out;
        for (size_t i = 0; i < plan_.choices.size(); ++i) {
            Choice c = plan_.choices[i];
            auto name = operandNames_.find(i);
            if (size_t at = c.subject.find(kOperand); at != std::string::npos && name != operandNames_.end())
                c.subject.replace(at, std::strlen(kOperand), name->second);
            if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(std::move(c));
        }
        return out;
    }
    void nameOperand(size_t choice, const std::string& name) { operandNames_.emplace(choice, name); }

    std::string summary() const {
        std::string r;
        std::set<std::string> seen;
        for (int n : g_.nodes)
            if (seen.insert(p_.nodes[n].what).second) r += (r.empty() ? "" : ", ") + p_.nodes[n].what;
        return r;
    }

    int bufferIndex(int node, bool write) {
        for (size_t i = 0; i < buffers_.size(); ++i)
            if (buffers_[i] == node) {
                if (write) writes_[i] = true;
                return int(i);
            }
        buffers_.push_back(node);
        writes_.push_back(write);
        return int(buffers_.size()) - 1;
    }

    void noteSymbols(const IE& e) {
        if (e->kind == IExpr::Sym) symbolsUsed_.insert(e->name);
        if (e->a) noteSymbols(e->a);
        if (e->b) noteSymbols(e->b);
    }
    std::string idx(const IE& e) {
        noteSymbols(e);
        return str(e);
    }

    // An offset whose indices read data (an embedding's row numbers, IExpr::Value): each such
    // index printed first, as a temporary the offset then names.
    IE readValues(const IE& e, Scope& sc) {
        if (!hasValue(e)) return e;
        if (e->kind == IExpr::Value) return ivar(expr(e->v, sc));
        IE a = readValues(e->a, sc), b = readValues(e->b, sc);
        switch (e->kind) {
        case IExpr::Add: return iadd(a, b);
        case IExpr::Mul: return imul(a, b);
        case IExpr::Div: return idiv(a, b);
        case IExpr::Mod: return imod(a, b);
        case IExpr::Min: return imin(a, b);
        case IExpr::Max: return imax(a, b);
        default: return e;
        }
    }

    std::string emitLine(Scope& sc, DType dt, const std::string& rhs) {
        std::string have = sc.find(rhs);
        if (!have.empty()) return have;
        std::string t = "t" + std::to_string(tmp_++);
        *sc.out += sc.indent + "const " + ctype(dt) + " " + t + " = " + rhs + ";\n";
        sc.cse[rhs] = t;
        return t;
    }

    std::string opaque(const std::string& rhs) {
        math_.insert("fl_opaque");
        return "fl_opaque(" + rhs + ")";
    }

    // A compared float constant: the plan's opaque copy of it (set once before the loops) where
    // the plan lists it, else the literal.
    std::string comparedConstant(const std::string& literal) {
        auto it = std::find(plan_.opaqueConstants.begin(), plan_.opaqueConstants.end(), literal);
        if (it == plan_.opaqueConstants.end()) return literal;
        math_.insert("fl_opaque");
        return "fl_k" + std::to_string(it - plan_.opaqueConstants.begin());
    }
    std::string compareOperand(const SE& arg, const std::string& text) {
        return arg->kind == SExpr::Const && arg->dtype == DType::F32 ? comparedConstant(text) : text;
    }

    std::string mathCall(const std::string& fn, const std::vector<std::string>& a) {
        math_.insert(fn);
        std::string r = fn + "(";
        for (size_t i = 0; i < a.size(); ++i) r += (i ? ", " : "") + a[i];
        return r + ")";
    }

    // ------------------------------------------------------------------ expressions
    // The value of e in scope sc, printed as temporaries (each right-hand side once per scope).
    // plan.cpp's walk() visits the same sub-expressions in the same order.
    std::string expr(const SE& e, Scope& sc) {
        std::string key; // e's valueKey, computed when one of the plan's tables is consulted
        auto keyOf = [&]() -> const std::string& {
            if (key.empty()) key = view::valueKey(e);
            return key;
        };
        // A value of the two-stage loop's first stage, read back from its block array.
        if (e->kind == SExpr::Load && !preset_.empty())
            if (auto it = preset_.find(keyOf()); it != preset_.end()) return emitLine(sc, e->dtype, it->second);
        // A value the plan computes once per row, before the row's loops.
        if (e->kind == SExpr::Call && rowScope_ && &sc != rowScope_ && stage_ > 0 && !plan_.rowValues.empty() && plan_.rowValues.count(keyOf()))
            return expr(e, *rowScope_);
        switch (e->kind) {
        case SExpr::Const: return literal(*e);
        case SExpr::Scalar: {
            int k = 0;
            for (auto& n : p_.nodes) {
                if (n.id == e->buffer) break;
                if (n.kind == NodeKind::Input && n.scalar) ++k;
            }
            scalarsUsed_.insert(k);
            return "scal[" + std::to_string(k) + "]";
        }
        case SExpr::Index: return "(" + idx(e->index[0]) + ")";
        case SExpr::Load: {
            const Node& m = p_.nodes[e->buffer];
            if (members_.count(m.id)) {
                if (m.kind == NodeKind::Reduction) {
                    auto it = redVar_.find(m.id);
                    if (it == redVar_.end()) throw std::logic_error("a reduction is read before its loop");
                    return it->second;
                }
                return expr(view::loadedBody(p_, e), sc);
            }
            bufferIndex(m.id, false);
            return emitLine(sc, m.dtype, m.name + "[" + idx(readValues(view::offsetExpr(p_, m.id, e->index), sc)) + "]");
        }
        case SExpr::Cast: {
            std::string a = expr(e->args[0], sc);
            if (e->dtype == DType::I64 && e->args[0]->dtype == DType::F32) return emitLine(sc, e->dtype, mathCall("fl_f2i64", {a}));
            return emitLine(sc, e->dtype, std::string("(") + ctype(e->dtype) + ")(" + a + ")");
        }
        case SExpr::Where: {
            std::string c = expr(e->args[0], sc), a = expr(e->args[1], sc), b = expr(e->args[2], sc);
            return emitLine(sc, e->dtype, c + " ? " + a + " : " + b);
        }
        case SExpr::Call: break;
        }
        // A costly value the plan keeps for the row: computed by its loop into the row's array,
        // read back from it by the later loops.
        const KeptValue* keep = nullptr;
        if (stage_ > 0 && !plan_.kept.empty())
            if (const KeptValue* kv = plan_.keptValue(keyOf())) {
                if (kv->loop < stage_) return emitLine(sc, e->dtype, kv->array + "[" + rowVar_ + "]");
                if (kv->loop == stage_) keep = kv;
            }
        std::vector<std::string> a;
        for (auto& x : e->args) a.push_back(expr(x, sc));
        const bool inRow = &sc == rowScope_;
        std::string rhs = callText(e, a, inRow ? Where::Row : Where::Loop, keyOf);
        if (inRow && !plan_.opaqueRowValues.empty())
            if (auto it = plan_.opaqueRowValues.find(keyOf()); it != plan_.opaqueRowValues.end()) {
                rhs = opaque(rhs);
                nameOperand(it->second, a.back());
            }
        std::string v = emitLine(sc, e->dtype, rhs);
        if (keep) {
            std::string line = keep->array + "[" + rowVar_ + "] = " + v + ";";
            if (sc.find(line).empty()) {
                *sc.out += sc.indent + line + "\n";
                sc.cse[line] = v;
            }
        }
        return v;
    }

    // The right-hand side of call e of arguments a, computed at w.
    template <class Key>
    std::string callText(const SE& e, std::vector<std::string>& a, Where w, Key& keyOf) {
        const Op op = e->op;
        if (!plan_.reciprocals.empty())
            if (auto it = plan_.reciprocals.find({w, keyOf()}); it != plan_.reciprocals.end()) {
                std::string r = emitLine(*rowScope_, DType::F32, opaque("1.0f / " + a[1]));
                nameOperand(it->second, a[1]);
                return a[0] + " * " + r;
            }
        if (const char* sym = infixSymbol(op)) {
            if (op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge)
                for (size_t i = 0; i < 2; ++i) a[i] = compareOperand(e->args[i], a[i]);
            return a[0] + " " + sym + " " + a[1];
        }
        const bool literalBound = e->args.size() > 1 && view::nonNanLiteral(e->args[1]);
        switch (op) {
        case Op::SubOrdered: return "__builtin_fmaf(" + a[1] + ", -1.0f, " + a[0] + ")"; // a - b, never reassociated
        case Op::MulAdd: return "__builtin_fmaf(" + a[0] + ", " + a[1] + ", " + a[2] + ")"; // one rounding, as eager's
        case Op::Neg: return "-" + a[0];
        case Op::Not: return "!" + a[0];
        case Op::Reciprocal: return "1.0f / " + a[0];
        case Op::Relu: return a[0] + " < " + comparedConstant("0.0f") + " ? 0.0f : " + a[0]; // NaN stays NaN: the compare is false
        case Op::Max:
        case Op::ClampMin: return literalBound ? a[0] + " < " + comparedConstant(a[1]) + " ? " + a[1] + " : " + a[0] : mathCall("fl_max", a);
        case Op::Min:
        case Op::ClampMax: return literalBound ? a[0] + " > " + comparedConstant(a[1]) + " ? " + a[1] + " : " + a[0] : mathCall("fl_min", a);
        case Op::Trunc: return "__builtin_truncf(" + a[0] + ")";
        default: return mathCall(view::mathName(op), a);
        }
    }

    void store(const Node& n, const std::string& value, Scope& sc) {
        bufferIndex(n.id, true);
        IE off = view::offsetExpr(p_, n.id, view::outCoords(n, g_.domain));
        *sc.out += sc.indent + n.name + "[" + idx(off) + "] = " + value + ";\n";
    }

    // `const long x0 = q / 1024; const long x1 = q % 1024;` for dims[0..n)
    std::string unravel(const Shape& dims, const std::string& q, const std::string& indent, size_t n, const std::string& prefix = "x") {
        std::string r;
        for (size_t i = 0; i < n; ++i) {
            IE inner = product(dims, i + 1, n);
            IE v = idiv(ivar(q), inner);
            if (i > 0) v = imod(v, dims[i]);
            r += indent + "const long " + prefix + std::to_string(i) + " = " + idx(v) + ";\n";
        }
        return r;
    }

    // ------------------------------------------------------------------ pointwise kernels
    // Rows, then blocks of the last dim (plan.blocked): the stored nodes' values per element,
    // the block loop in sub-blocks fetching the next block ahead, or in two stages, as planned.
    std::string pointwiseBody() {
        Shape outer = g_.domain.outer;
        if (outer.empty()) outer.push_back(iconst(1));
        const size_t last = outer.size() - 1;
        const IE lastDim = outer[last];
        const std::string xl = "x" + std::to_string(last);
        std::string body;
        Scope sc{"            ", &body, {}, nullptr};
        std::vector<std::pair<int, SE>> outs;
        for (int n : g_.nodes) {
            const Node& nd = p_.nodes[n];
            if (!s_.stored[n]) continue;
            outs.emplace_back(n, view::placedBody(nd, g_.domain));
            store(nd, expr(outs.back().second, sc), sc);
        }
        const std::string ahead = blockPrefetchLines();
        if (!ahead.empty()) {
            // the body one level deeper, inside the block loop
            std::string deeper;
            for (size_t at = 0; at < body.size();) {
                size_t nl = body.find('\n', at);
                deeper += "    " + body.substr(at, nl - at + 1);
                at = nl == std::string::npos ? body.size() : nl + 1;
            }
            body = deeper;
        }
        std::string out = "    for (long q = begin; q < end; ++q) {\n";
        if (plan_.blocked) {
            std::string nb = idx(plan_.blocks), B = std::to_string(plan_.block);
            out += "        const long row = q / " + nb + ";\n";
            out += "        const long j0 = (q % " + nb + ") * " + B + ";\n";
            out += "        const long j1 = j0 + " + B + " < " + idx(lastDim) + " ? j0 + " + B + " : " + idx(lastDim) + ";\n";
            out += unravel(outer, "row", "        ", last);
            if (!ahead.empty()) {
                if (plan_.twoStageCut) return out + twoStageLoops(outs, xl, ahead);
                std::string L = std::to_string(plan_.lanes);
                out += "        for (long b0 = j0; b0 < j1; b0 += " + L + ") {\n";
                out += ahead;
                out += "            const long b1 = b0 + " + L + " < j1 ? b0 + " + L + " : j1;\n";
                out += interleavePragma(plan_.interleave, "            ");
                out += "            for (long " + xl + " = b0; " + xl + " < b1; ++" + xl + ") {\n";
                out += body + "            }\n        }\n    }\n";
                return out;
            }
            out += interleavePragma(plan_.interleave, "        ");
            out += "        for (long " + xl + " = j0; " + xl + " < j1; ++" + xl + ") {\n";
        } else {
            out += unravel(outer, "q", "        ", last);
            if (plan_.twoStageCut) {
                out += "        const long j0 = 0;\n";
                out += "        const long j1 = " + idx(lastDim) + ";\n";
                return out + twoStageLoops(outs, xl, "");
            }
            out += interleavePragma(plan_.interleave, "        ");
            out += "        for (long " + xl + " = 0; " + xl + " < " + idx(lastDim) + "; ++" + xl + ") {\n";
        }
        out += body + "        }\n    }\n";
        return out;
    }

    // The plan's prefetches of the next row block, for the sub-block of `lanes` elements at b0
    // ("" when there are none).
    std::string blockPrefetchLines() {
        if (plan_.prefetches.empty()) return {};
        bool writes = false;
        std::string r;
        for (const Prefetch& pf : plan_.prefetches) {
            writes = writes || pf.write;
            r += "            for (long c = 0; c < " + std::to_string(plan_.lanes) + "; c += " + std::to_string(pf.perLine) + ") __builtin_prefetch(&" +
                 p_.nodes[pf.node].name + "[" + idx(pf.offset) + "]" + (pf.write ? ", 1" : "") + ");\n";
        }
        return std::string("            // the next row block's inputs") + (writes ? " and outputs" : "") + ", fetched while this one computes\n" + r;
    }

    // A pointwise loop over [j0, j1) in two stages (plan.twoStageCut): the first stage of its
    // first `lanes` elements, then per block of `lanes`, the first stage of the next block beside
    // the second stage of this one, each block's first-stage values kept in a small array.
    // `ahead`: the block loop's prefetches ("" for none).
    std::string twoStageLoops(const std::vector<std::pair<int, SE>>& outs, const std::string& xl, const std::string& ahead) {
        const SE& cut = plan_.twoStageCut;
        const std::string L = std::to_string(plan_.lanes);
        const Node& cn = p_.nodes[cut->buffer];
        const std::string T = ctype(cut->dtype);
        auto firstStage = [&](const SE& at, const std::string& array, const std::string& from, const std::string& indent) {
            std::string text;
            Scope sc{indent, &text, {}, nullptr};
            tmp_ = 0;
            text += sc.indent + array + "[" + xl + " - " + from + "] = " + expr(at, sc) + ";\n";
            return text;
        };
        auto secondStage = [&](const std::string& indent, std::string text = "") {
            Scope sc{indent, &text, {}, nullptr};
            preset_[view::valueKey(cut)] = "fl_this[" + xl + " - b0]";
            for (auto& [n, e] : outs) store(p_.nodes[n], expr(e, sc), sc);
            preset_.clear();
            return text;
        };
        std::string out;
        out += "        // " + cn.name + " (" + cn.what + ") is computed a block ahead, beside the rest of the block before:\n";
        out += "        // two independent chains of costly math side by side keep the vector units busy\n";
        // aligned to cache lines: unaligned (the stack's layout varies run to run) the loop took
        // 0.0351 instead of 0.0325 ms in some runs
        out += "        " + T + " fl_stage_a[" + L + "] __attribute__((aligned(64))), fl_stage_b[" + L + "] __attribute__((aligned(64)));\n";
        out += "        " + T + "* fl_this = fl_stage_a;\n";
        out += "        " + T + "* fl_next = fl_stage_b;\n";
        out += "        {\n";
        out += "            const long b1 = j0 + " + L + " < j1 ? j0 + " + L + " : j1;\n";
        std::string body = firstStage(cut, "fl_this", "j0", "                ");
        out += interleavePragma(plan_.firstStageInterleave, "            ");
        out += "            for (long " + xl + " = j0; " + xl + " < b1; ++" + xl + ") {\n" + body + "            }\n";
        out += "        }\n";
        out += "        for (long b0 = j0; b0 < j1; b0 += " + L + ") {\n";
        out += ahead;
        out += "            const long b1 = b0 + " + L + " < j1 ? b0 + " + L + " : j1;\n";
        out += "            const long b2 = b1 + " + L + " < j1 ? b1 + " + L + " : j1;\n";
        out += "            const long both = b0 + (b2 - b1); // this block's elements with a next-block partner\n";
        std::string both = firstStage(ssubstitute(cut, {{xl, iadd(ivar(xl), iconst(plan_.lanes))}}), "fl_next", "b0", "                ");
        both = secondStage("                ", both);
        out += "            for (long " + xl + " = b0; " + xl + " < both; ++" + xl + ") {\n" + both + "            }\n";
        tmp_ = 0;
        std::string rest = secondStage("                ");
        out += interleavePragma(plan_.secondStageInterleave, "            ");
        out += "            for (long " + xl + " = both; " + xl + " < b1; ++" + xl + ") {\n" + rest + "            }\n";
        out += "            " + T + "* const fl_done = fl_this;\n";
        out += "            fl_this = fl_next;\n";
        out += "            fl_next = fl_done;\n";
        out += "        }\n    }\n";
        return out;
    }

    // ------------------------------------------------------------------ reduction kernels
    // Rows, then the plan's loops over the reduced dims; values fixed for the row are printed in
    // the row's scope, before the loop that first needs them.
    std::string reductionBody() {
        const Domain& d = g_.domain;
        std::string out = "    for (long q = begin; q < end; ++q) {\n";
        out += unravel(d.outer, "q", "        ", d.outer.size());
        Scope row{"        ", &out, {}, nullptr};
        rowScope_ = &row;
        if (!plan_.kept.empty()) rowVar_ = view::reducedVar(d);
        for (const KeptValue& kv : plan_.kept)
            out += "        float " + kv.array + "[" + std::to_string(plan_.rowLength) + "]; // a value loop " + std::to_string(kv.loop) +
                   " computes, kept for the later loops of the row\n";
        if (!plan_.prefetches.empty()) {
            out += "        const long nq = q + 1; // the next row\n";
            out += unravel(d.outer, "nq", "        ", d.outer.size(), "nx");
        }
        for (const ReductionLoop& l : plan_.loops) reductionLoop(l, row, out);
        stage_ = 0;
        for (int n : plan_.rowLevel)
            if (s_.stored[n]) store(p_.nodes[n], expr(view::placedBody(p_.nodes[n], d), row), row);
        out += "    }\n";
        rowScope_ = nullptr;
        return out;
    }

    // Appends loop l to out (the row scope's text): its accumulators, the loop nest, the lane
    // trees of its reductions and their stores.
    void reductionLoop(const ReductionLoop& l, Scope& row, std::string& out) {
        const Domain& d = g_.domain;
        const size_t nInner = d.inner.size();
        const std::string rl = view::reducedVar(d), K = std::to_string(plan_.lanes);
        std::string ind = "            ";
        for (size_t i = 0; i + 1 < nInner; ++i) ind += "    ";
        const std::string R = idx(d.inner[nInner - 1]);
        stage_ = l.index;
        std::map<int, std::string> streamed; // node -> its row's first element
        for (int n : l.streamed)
            streamed[n] = idx(substitute(view::offsetExpr(p_, n, view::outCoords(p_.nodes[n], d)), {{rl, iconst(0)}}));
        auto loopBody = [&](const std::string& lane, const std::string& bodyIndent) {
            std::string text;
            Scope sc{bodyIndent, &text, {}, &row};
            for (int n : l.reductions) {
                const Node& nd = p_.nodes[n];
                SE body = view::placedBody(nd, d);
                std::string acc = nd.name + "_acc[" + lane + "]";
                if (view::sumOfProducts(nd, body)) {
                    std::string a0 = expr(body->args[0], sc), a1 = expr(body->args[1], sc);
                    text += bodyIndent + acc + " = __builtin_fmaf(" + a0 + ", " + a1 + ", " + acc + ");\n";
                    continue;
                }
                std::string v = expr(body, sc);
                text += bodyIndent + acc + " = " + combineExpr(nd.reduceOp, acc, v) + ";\n";
            }
            for (int n : l.stores) {
                std::string v = expr(view::placedBody(p_.nodes[n], d), sc);
                if (streamed.count(n)) {
                    bufferIndex(n, true);
                    text += bodyIndent + p_.nodes[n].name + "_row[" + rl + "] = " + v + ";\n";
                } else store(p_.nodes[n], v, sc);
            }
            return text;
        };
        const std::string lanes = l.reductions.empty() ? "" : loopBody("l", ind + "        ");
        const std::string tail = loopBody("0", ind + (l.blocked ? "        " : "    "));
        out += "        // loop " + std::to_string(l.index) + ":";
        for (int n : l.reductions) out += " " + p_.nodes[n].name + " (" + graph::opName(p_.nodes[n].reduceOp) + " of " + p_.nodes[n].what + ")";
        for (int n : l.stores) out += " " + p_.nodes[n].name + " (" + p_.nodes[n].what + ")";
        out += "\n";
        for (int n : l.reductions) {
            const Node& nd = p_.nodes[n];
            out += "        float " + nd.name + "_acc[" + K + "];\n";
            out += "        for (int l = 0; l < " + K + "; ++l) " + nd.name + "_acc[l] = " + initValue(nd.reduceOp) + ";\n";
        }
        out += "        {\n";
        for (auto& [n, base] : streamed) out += "            alignas(64) float " + p_.nodes[n].name + "_row[" + std::to_string(plan_.rowLength) + "];\n";
        for (size_t i = 0; i + 1 < nInner; ++i) {
            const std::string r = "r" + std::to_string(i);
            out += ind.substr(0, 12 + 4 * i) + "for (long " + r + " = 0; " + r + " < " + idx(d.inner[i]) + "; ++" + r + ") {\n";
        }
        if (!l.reductions.empty()) {
            // `lanes` independent accumulators: the lane loop vectorizes, and the order of the
            // additions is fixed by the source, whatever the compiler
            out += ind + "long " + rl + "b = 0;\n";
            out += ind + "for (; " + rl + "b + " + K + " <= " + R + "; " + rl + "b += " + K + ") {\n";
            if (l.prefetch) out += prefetchLines(ind + "    ");
            out += interleavePragma(l.interleave, ind + "    ");
            out += ind + "    for (long l = 0; l < " + K + "; ++l) {\n";
            out += ind + "        const long " + rl + " = " + rl + "b + l;\n";
            out += lanes;
            out += ind + "    }\n" + ind + "}\n";
            out += ind + "for (long " + rl + " = " + rl + "b; " + rl + " < " + R + "; ++" + rl + ") {\n";
            out += tail;
            out += ind + "}\n";
        } else if (l.blocked) {
            out += ind + "for (long " + rl + "b = 0; " + rl + "b < " + R + "; " + rl + "b += " + K + ") {\n";
            out += prefetchLines(ind + "    ");
            out += ind + "    const long " + rl + "e = " + rl + "b + " + K + " < " + R + " ? " + rl + "b + " + K + " : " + R + ";\n";
            out += interleavePragma(l.interleave, ind + "    ");
            out += ind + "    for (long " + rl + " = " + rl + "b; " + rl + " < " + rl + "e; ++" + rl + ") {\n";
            out += tail;
            out += ind + "    }\n" + ind + "}\n";
        } else {
            out += interleavePragma(l.interleave, ind);
            out += ind + "for (long " + rl + " = 0; " + rl + " < " + R + "; ++" + rl + ") {\n";
            out += tail;
            out += ind + "}\n";
        }
        for (size_t i = nInner - 1; i-- > 0;) out += ind.substr(0, 12 + 4 * i) + "}\n";
        for (auto& [n, base] : streamed)
            out += "            fl_stream_row(&" + p_.nodes[n].name + "[" + base + "], " + p_.nodes[n].name + "_row, " + std::to_string(plan_.rowLength) + ");\n";
        out += "        }\n";
        for (int n : l.reductions) {
            const Node& nd = p_.nodes[n];
            out += laneTree(nd);
            redVar_[n] = nd.name + "_v";
            if (s_.stored[n]) store(nd, nd.name + "_v", row);
        }
    }

    // The plan's prefetches of the next row, for the block of `lanes` elements at rNb: one per
    // cache line.
    std::string prefetchLines(const std::string& indent) {
        bool writes = std::any_of(plan_.prefetches.begin(), plan_.prefetches.end(), [](const Prefetch& pf) { return pf.write; });
        std::string r = indent + "// the next row's inputs" + (writes ? " and outputs" : "") + ", fetched while this one computes\n";
        for (const Prefetch& pf : plan_.prefetches) {
            const std::string& buffer = p_.nodes[pf.node].name;
            if (pf.perLine >= plan_.lanes) {
                r += indent + "__builtin_prefetch(&" + buffer + "[" + idx(substitute(pf.offset, {{"c", iconst(0)}})) + "]" + (pf.write ? ", 1" : "") + ");\n";
                continue;
            }
            r += indent + "for (long c = 0; c < " + std::to_string(plan_.lanes) + "; c += " + std::to_string(pf.perLine) + ") __builtin_prefetch(&" + buffer +
                 "[" + idx(pf.offset) + "]" + (pf.write ? ", 1" : "") + ");\n";
        }
        return r;
    }

    // A reduction's `lanes` accumulators folded into NAME_v by a fixed tree, lanes l and l + w for
    // w = 32, 16, ..., 1: the two vector-wide steps on the array, the last four on named values.
    // Written as loops down to w = 1, the narrow steps went through the array in pieces of 8, 4,
    // 2 and 1 lanes, each read waiting on a wider store, and took 40% of masked_softmax's kernel
    // (rows of 256; 0.042 -> 0.032 ms per 256 rows on one thread in L2, the same sums).
    std::string laneTree(const Node& nd) {
        const std::string acc = nd.name + "_acc";
        std::string out;
        int w = plan_.lanes / 2;
        for (; w >= 16; w /= 2)
            out += "        for (int l = 0; l < " + std::to_string(w) + "; ++l) " + acc + "[l] = " +
                   combineExpr(nd.reduceOp, acc + "[l]", acc + "[l + " + std::to_string(w) + "]") + ";\n";
        std::vector<std::string> lanes;
        for (int l = 0; l < 2 * w; ++l) lanes.push_back(acc + "[" + std::to_string(l) + "]");
        for (; w >= 1; w /= 2) {
            std::vector<std::string> next;
            for (int l = 0; l < w; ++l) {
                next.push_back(w == 1 ? nd.name + "_v" : nd.name + "_w" + std::to_string(w) + "_" + std::to_string(l));
                out += std::string(l % 4 ? ", " : "        const float ") + next.back() + " = " + combineExpr(nd.reduceOp, lanes[l], lanes[l + w]) +
                       (l % 4 == 3 || l == w - 1 ? ";\n" : "");
            }
            lanes = next;
        }
        return out;
    }

    std::string combineExpr(Op op, const std::string& a, const std::string& b) {
        switch (op) {
        case Op::Sum: return a + " + " + b;
        case Op::Prod: return a + " * " + b;
        case Op::Max: return mathCall("fl_max", {a, b});
        default: return mathCall("fl_min", {a, b});
        }
    }
    static std::string initValue(Op op) {
        switch (op) {
        case Op::Sum: return "0.0f";
        case Op::Prod: return "1.0f";
        case Op::Max: return "(-__builtin_inff())";
        default: return "__builtin_inff()";
        }
    }
};

// A kernel's name: what it computes (its first four kinds of node) and its number.
std::string kernelName(const Program& p, const Group& g, size_t number) {
    std::string name = "cpp_fused";
    std::set<std::string> seen;
    int parts = 0;
    for (int n : g.nodes) {
        const std::string& w = p.nodes[n].what;
        if (seen.insert(w).second && parts++ < 4) name += "_" + w;
    }
    return name + "_" + std::to_string(number);
}

} // namespace

Kernel emit(const Program& p, const fuse::Schedule& s, const KernelPlan& plan, const std::string& name) { return KernelWriter(p, s, plan).write(name); }

std::vector<Kernel> emitKernels(const Program& p, const fuse::Schedule& s, const std::vector<KernelPlan>& plans) {
    std::vector<Kernel> out;
    for (const KernelPlan& pl : plans) out.push_back(emit(p, s, pl, kernelName(p, s.groups.at(pl.group), out.size())));
    return out;
}

std::string translationUnit(const std::vector<Kernel>& kernels) {
    std::string tu = "// Fuselab kernels: one namespace per kernel, each self-contained.\n";
    for (size_t i = 0; i < kernels.size(); ++i) tu += "namespace k" + std::to_string(i) + " {\n" + kernels[i].source + "} // namespace k" + std::to_string(i) + "\n";
    return tu;
}

} // namespace fl::codegen
