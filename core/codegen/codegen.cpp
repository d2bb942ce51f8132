#include "core/codegen/codegen.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "core/codegen/kmath.h"
#include "core/graph/ops.h"

namespace fl::codegen {

const char* choiceName(ChoiceKind k) {
    static constexpr const char* names[] = {"kept value", "row value", "interleave", "prefetch ahead", "two stages", "streamed", "opaque constant"};
    return names[size_t(k)];
}

using namespace lower;
using fuse::Domain;
using fuse::Group;
using fuse::Placement;

namespace {

constexpr int kLanes = 64;        // independent accumulators per reduction: four AVX-512 vectors, so
                                  // the adds of consecutive steps do not wait on each other
constexpr int64_t kBlock = 4096;  // elements of the last dim per row block of a pointwise kernel
constexpr int64_t kRowStash = 4096; // longest reduced row whose costly values are kept for later loops
constexpr int64_t kStreamBytes = int64_t(16) << 20; // smallest output written past the caches

// The last-level cache in bytes: FUSELAB_LLC_BYTES when set (to generate for another machine, or
// in tests), else the largest cache sysfs lists for cpu0; 0 when unknown.
int64_t lastLevelCacheBytes() {
    static const int64_t bytes = [] {
        if (const char* e = std::getenv("FUSELAB_LLC_BYTES")) return std::max<int64_t>(0, std::strtoll(e, nullptr, 10));
        int64_t best = 0;
        for (int i = 0; i < 8; ++i) {
            std::FILE* f = std::fopen(("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/size").c_str(), "r");
            if (!f) continue;
            long long v = 0;
            char unit = 0;
            if (std::fscanf(f, "%lld%c", &v, &unit) >= 1) best = std::max<int64_t>(best, v << (unit == 'K' ? 10 : unit == 'M' ? 20 : 0));
            std::fclose(f);
        }
        return best;
    }();
    return bytes;
}

// Outputs at least this large are written past the caches: those that do not fit in the
// last-level cache beside an input of their size, and would go to memory anyway. One that fits
// stays there for its reader; on the 480 MiB L3 host of 2026-12-06, rmsnorm's 16 MiB output took
// 0.950-0.999 ms streamed against 0.831-0.937 ms with ordinary stores (fuselab bench, 10 pairs).
int64_t streamBytes() { return std::max(kStreamBytes, lastLevelCacheBytes() / 2); }

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

// The transcendental functions of kmath (graph::Costly in the op table): costly enough to keep
// rather than compute twice, and built of chains of dependent operations.
bool costlyCall(Op op) { return graph::info(op).costly() && graph::info(op).kernel(); }
const std::vector<std::string>& costlyOps() {
    static const std::vector<std::string> ops = [] {
        std::vector<std::string> v;
        for (size_t i = 0; i < graph::kOpCount; ++i)
            if (const graph::OpInfo& in = graph::info(graph::Op(i)); in.costly() && in.kernel()) v.push_back(in.name);
        return v;
    }();
    return ops;
}

// A loop whose body calls them is bound by their dependency chains (the polynomial of one vector
// waits on itself), not by memory: asking clang for four vectors at once, interleaved instruction
// by instruction, keeps both vector ports busy. Measured on pointwise_chain (sigmoid, tanh):
// 11.4 -> 5.9 ms on one thread. Other compilers ignore the pragma.
// The first costly function a loop body calls ("fl_tanh"), or "".
std::string costlyCallIn(const std::string& body) {
    for (const auto& op : costlyOps())
        if (body.find("fl_" + op + "(") != std::string::npos) return "fl_" + op;
    return {};
}
bool latencyBound(const std::string& body) { return !costlyCallIn(body).empty(); }

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

// A literal power of two: dividing by it is multiplying by its exact reciprocal, which the
// compiler does by itself.
bool exactReciprocal(const SE& e) {
    if (e->kind != SExpr::Const || !(e->c > 0) || std::isinf(e->c)) return false;
    int ex;
    return std::frexp(e->c, &ex) == 0.5;
}

// A float constant that is not NaN: max(x, c) is then `x < c ? c : x`, NaN-propagating for x with
// one compare (fl_max needs two, for a NaN on either side).
bool nonNanLiteral(const SE& e) { return e->kind == SExpr::Const && e->dtype == DType::F32 && !std::isnan(e->c); }

std::string floatLit(double v) {
    if (std::isnan(v)) return "__builtin_nanf(\"\")";
    if (std::isinf(v)) return v > 0 ? "__builtin_inff()" : "(-__builtin_inff())";
    char b[64];
    std::snprintf(b, sizeof b, "%.9g", v);
    std::string s = b;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s + "f";
}

std::string literal(const SExpr& e) {
    switch (e.dtype) {
    case DType::F32: return floatLit(e.c);
    case DType::Bool: return e.c != 0 ? "true" : "false";
    case DType::I64: return std::to_string(int64_t(e.c)) + "L";
    }
    return "0";
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
    KernelWriter(const Program& p, const fuse::Schedule& s, const Group& g) : p_(p), s_(s), g_(g), members_(g.nodes.begin(), g.nodes.end()) {}

    Kernel write(const std::string& name) {
        Kernel k;
        k.name = name;
        k.group = g_.id;
        k.nodes = g_.nodes;
        const Domain& d = g_.domain;
        std::string body;
        if (d.isReduction()) {
            // A dry run finds the costly inlined values that later loops compute again (softmax's
            // exp: summed in one loop, divided in the next); this run keeps them for the row.
            KernelWriter dry(p_, s_, g_);
            Kernel scratch;
            dry.reductionBody(scratch);
            for (auto& [key, stages] : dry.readInStage_)
                if (stages.size() > 1) stash_[key] = {*stages.begin(), ""};
            prefetchStage_ = dry.latencyStage_;
            rowLoads_ = dry.rowLoads_;
            rowStores_ = dry.rowStores_;
            body = reductionBody(k);
        } else body = pointwiseBody(k);
        k.buffers = buffers_;
        k.writes = writes_;
        k.plan = plan_;

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
        const bool versioned = math_.count("fl_sin") || math_.count("fl_cos");
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
        if (streams_) src << kStreamRow << "\n";
        // The loops live in a function of pointer parameters: restrict-qualified parameters tell
        // the compiler that the buffers do not overlap (on local pointers it ignores that), so it
        // keeps accumulators in registers and adds no run-time overlap checks.
        auto rowsFunction = [&](const std::string& fn, const std::string& loops, bool fast) {
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
            for (auto& [literal, name] : comparedConstants_) src << "    const float " << name << " = fl_opaque(" << literal << ");\n";
            if (fast) src << "    bool fl_big = false; // an argument of sin or cos reached 2^20\n";
            src << loops;
            if (streams_) src << "#if defined(__clang__)\n    __atomic_thread_fence(__ATOMIC_SEQ_CST); // the streamed rows reach memory\n#endif\n";
            if (fast) src << "    return fl_big;\n";
            src << "}\n\n";
        };
        if (versioned) rowsFunction(name + "_rows_fast", fastBody, true);
        rowsFunction(name + "_rows", body, false);
        std::string args;
        for (size_t i = 0; i < buffers_.size(); ++i)
            args += "(" + std::string(writes_[i] ? "" : "const ") + ctype(p_.nodes[buffers_[i]].dtype) + "*)bufs[" + std::to_string(i) + "], ";
        args += "sym, scal, begin, end";
        src << "extern \"C\" void " << name << "(void* const* bufs, const long* sym, const float* scal, long begin, long end) {\n";
        if (versioned) src << "    if (" << name << "_rows_fast(" << args << ")) // again, reducing the large arguments by Payne-Hanek\n    ";
        src << "    " << name << "_rows(" << args << ");\n}\n";
        k.source = src.str();
        return k;
    }

private:
    const Program& p_;
    const fuse::Schedule& s_;
    const Group& g_;
    std::set<int> members_;
    std::vector<int> buffers_;
    std::vector<bool> writes_;
    std::set<std::string> math_, symbolsUsed_;
    std::set<int> scalarsUsed_;
    std::map<std::string, std::string> comparedConstants_; // literal -> its opaque copy (comparedConstant)
    std::vector<Choice> plan_;                              // the kernel's choices (choose)
    std::map<int, std::string> redVar_;
    int tmp_ = 0;
    Scope* rowScope_ = nullptr;          // a reduction kernel's per-row scope
    std::set<std::string> rowValues_;    // names whose value is fixed for the row
    int stage_ = 0;                      // the reduction kernel's loop being written (1, 2, ...)
    int latencyStage_ = 0;               // the first loop bound by math latency
    std::string rowVar_;                 // its innermost loop variable, where rows can be stashed
    std::map<std::string, std::set<int>> readInStage_; // costly value (keyOf) -> loops that compute it
    struct Stash {
        int stage;        // the loop that computes it first and keeps it
        std::string name; // its row array
    };
    std::map<std::string, Stash> stash_;
    std::map<std::string, std::pair<int, IE>> rowLoads_; // buffer reads of the row loops: node, offset
    std::map<std::string, std::pair<int, IE>> rowStores_; // and their writes to buffers
    int prefetchStage_ = 0;              // the loop that fetches the next row's inputs ahead
    bool pointwiseLoads_ = false;        // a pointwise body is being written: record its reads and writes too
    // Whether the buffer reads and writes being written are recorded (rowLoads_, rowStores_).
    bool recording() const { return stage_ > 0 || pointwiseLoads_; }
    struct Prefetch {
        std::string buffer;
        IE offset;       // in the next row's vars, at r0b + c
        int64_t perLine; // elements per 64-byte cache line
        bool write;      // fetched for writing (prefetchw)
    };
    std::vector<Prefetch> prefetches_;
    bool streams_ = false;               // some output rows are written with fl_stream_row
    std::map<std::string, std::string> preset_; // keyOf(load) -> what stands for it (a two-stage loop's block array)

    // Whether a read at offset `off` steps by one element when `var` does (other vars at 1,
    // symbols at 7: any nonzero values would do).
    bool unitStride(const IE& off, const std::string& var) const {
        std::map<std::string, int64_t> e0, e1;
        for (size_t i = 0; i < g_.domain.outer.size(); ++i) e0["x" + std::to_string(i)] = 1;
        for (auto& sym : p_.symbols) e0[sym] = 7;
        e1 = e0;
        e0[var] = 0, e1[var] = 1;
        return evaluate(off, e1) - evaluate(off, e0) == 1;
    }
    // Elements of buffer node n per 64-byte cache line.
    int64_t perLine(int n) const {
        DType t = p_.nodes[n].dtype;
        return 64 / (t == DType::F32 ? 4 : t == DType::Bool ? 1 : 8);
    }

    // The next row's addresses of the reads that move with the row and run along the reduced
    // dim, for a loop over blocks of kLanes starting at r0b (the outer vars of row q + 1 are nx0,
    // nx1, ...). A prefetch is a hint: a wrong address costs a little time, never a fault.
    void planPrefetches(const std::string& rl) {
        const Domain& d = g_.domain;
        std::map<std::string, IE> next;
        std::map<std::string, int64_t> env;
        for (size_t i = 0; i < d.outer.size(); ++i) {
            next["x" + std::to_string(i)] = ivar("nx" + std::to_string(i));
            env["x" + std::to_string(i)] = 1;
        }
        for (auto& sym : p_.symbols) env[sym] = 7;
        next[rl] = iadd(ivar(rl + "b"), ivar("c"));
        auto plan = [&](const std::map<std::string, std::pair<int, IE>>& accesses, bool write) {
            for (auto& [key, access] : accesses) {
                const IE& off = access.second;
                std::map<std::string, int64_t> e0 = env, e2 = env;
                e0[rl] = 0, e2[rl] = 0;
                for (size_t i = 0; i < d.outer.size(); ++i) e2["x" + std::to_string(i)] = 2;
                bool movesWithRow = evaluate(off, e2) != evaluate(off, e0);
                if (unitStride(off, rl) && movesWithRow) prefetches_.push_back({p_.nodes[access.first].name, substitute(off, next), perLine(access.first), write});
            }
        };
        plan(rowLoads_, false);
        if (!prefetches_.empty()) plan(rowStores_, true);
    }
    // One prefetch per cache line of the block of kLanes elements starting at r0b.
    std::string prefetchLines(const std::string& indent) {
        bool writes = std::any_of(prefetches_.begin(), prefetches_.end(), [](const Prefetch& pf) { return pf.write; });
        std::string r = indent + "// the next row's inputs" + (writes ? " and outputs" : "") + ", fetched while this one computes\n";
        for (auto& pf : prefetches_) {
            if (pf.perLine >= kLanes) {
                r += indent + "__builtin_prefetch(&" + pf.buffer + "[" + idx(substitute(pf.offset, {{"c", iconst(0)}})) + "]" + (pf.write ? ", 1" : "") + ");\n";
                continue;
            }
            r += indent + "for (long c = 0; c < " + std::to_string(kLanes) + "; c += " + std::to_string(pf.perLine) + ") __builtin_prefetch(&" +
                 pf.buffer + "[" + idx(pf.offset) + "]" + (pf.write ? ", 1" : "") + ");\n";
        }
        return r;
    }

    // Whether computing e in loop `st` calls costly math (values kept from an earlier loop are
    // read, not computed): such a loop is bound by the math, and its stores stay ordinary.
    bool computesCostly(const SE& e, int st, int depth = 0) const {
        if (depth > 64) return true;
        if (e->kind == SExpr::Call && costlyCall(e->op)) {
            auto it = stash_.find(keyOf(e));
            return it == stash_.end() || it->second.stage >= st;
        }
        if (e->kind == SExpr::Load && members_.count(e->buffer) && p_.nodes[e->buffer].kind != NodeKind::Reduction) {
            return computesCostly(loadedBody(e), st, depth + 1);
        }
        for (auto& a : e->args)
            if (computesCostly(a, st, depth)) return true;
        return false;
    }

    // Whether computing e in loop `st` reads memory along the reduced dim rl: a load of a buffer
    // from outside the kernel that moves with rl (values kept from an earlier loop are read from
    // the row's array instead).
    bool readsAlongRow(const SE& e, int st, const std::string& rl, int depth = 0) const {
        if (depth > 64) return true;
        if (e->kind == SExpr::Call && costlyCall(e->op)) {
            auto it = stash_.find(keyOf(e));
            if (it != stash_.end() && it->second.stage < st) return false;
        }
        if (e->kind == SExpr::Load) {
            const Node& m = p_.nodes[e->buffer];
            if (!members_.count(m.id)) return unitStride(offsetExpr(m.id, e->index), rl);
            if (m.kind == NodeKind::Reduction) return false; // the row's value
            return readsAlongRow(loadedBody(e), st, rl, depth + 1);
        }
        for (auto& a : e->args)
            if (readsAlongRow(a, st, rl, depth)) return true;
        return false;
    }

    // Whether a node after n in the program may read n's buffer: another kernel's loads, or any
    // library call or eager op (they read captured values, possibly through views of n).
    bool readLater(int n) const {
        for (const Node& m : p_.nodes) {
            if (m.id <= n || members_.count(m.id)) continue;
            if (m.kind == NodeKind::Extern || m.kind == NodeKind::Fallback) return true;
            if (!m.body) continue;
            std::vector<const SExpr*> loads;
            collectLoads(m.body, loads);
            for (const SExpr* l : loads)
                if (l->buffer == n) return true;
        }
        return false;
    }

    // A structural name for a value of the kernel: equal names, equal values within a row.
    std::string keyOf(const SE& e) const {
        std::string k;
        switch (e->kind) {
        case SExpr::Load:
            k = "L" + std::to_string(e->buffer) + "[";
            for (auto& i : e->index) k += str(i) + ",";
            return k + "]";
        case SExpr::Const: return "C" + std::to_string(int(e->dtype)) + ":" + floatLit(e->c);
        case SExpr::Scalar: return "S" + std::to_string(e->buffer);
        case SExpr::Index: return "I" + str(e->index[0]);
        case SExpr::Call: k = std::string("F") + graph::opName(e->op); break;
        case SExpr::Where: k = "W"; break;
        case SExpr::Cast: k = "T" + std::to_string(int(e->dtype)); break;
        }
        k += "(";
        for (auto& a : e->args) k += keyOf(a) + ",";
        return k + ")";
    }

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

    // Flat element offset of coordinates in buffer `n` (row-major unless it has strides).
    IE offsetExpr(int n, const std::vector<IE>& coords) const {
        const Node& b = p_.nodes[n];
        std::vector<IE> st = b.kind == NodeKind::Input || !b.strides.empty() ? b.strides : contiguousStrides(b.shape);
        IE off = iconst(0);
        for (size_t i = 0; i < coords.size() && i < st.size(); ++i) off = iadd(off, imul(coords[i], st[i]));
        return off;
    }
    std::string offset(int n, const std::vector<IE>& coords) { return idx(offsetExpr(n, coords)); }

    std::string emitLine(Scope& sc, DType dt, const std::string& rhs) {
        std::string have = sc.find(rhs);
        if (!have.empty()) return have;
        std::string t = "t" + std::to_string(tmp_++);
        *sc.out += sc.indent + "const " + ctype(dt) + " " + t + " = " + rhs + ";\n";
        sc.cse[rhs] = t;
        if (&sc == rowScope_) rowValues_.insert(t);
        return t;
    }

    // A row's reciprocal hidden from the optimizer. With reassociation allowed, clang rewrites
    // x * (1 / s) as x / s, one divide per element instead of one per row: on layernorm_gelu_residual
    // that divide took a fifth of the kernel's time (0.0313 -> 0.0259 ms per 64 rows, one thread).
    std::string opaque(const std::string& rhs) {
        math_.insert("fl_opaque");
        return "fl_opaque(" + rhs + ")";
    }

    // A float constant that a compare reads, as a value the optimizer cannot see, set once before the
    // loops. Clang 15 folds two clamps in a row, max(max(x, c), c) written as selects, into the
    // first even where they treat NaN differently: `x < 0 ? 0 : x` (relu, NaN stays NaN) then
    // `y > 0 ? y : 0` (a where, NaN becomes 0) gave NaN. Its min/max matching needs one compared
    // operand known not to be NaN, which a constant it cannot see is not; the compare and select
    // still vectorize (a compare with a broadcast register).
    std::string comparedConstant(const std::string& literal) {
        auto [it, added] = comparedConstants_.emplace(literal, "");
        if (added) {
            it->second = "fl_k" + std::to_string(comparedConstants_.size() - 1);
            choose(ChoiceKind::OpaqueConstant, literal, "a compare reads it: a constant the optimizer can see lets Clang 15 fold two clamps that treat NaN differently");
        }
        math_.insert("fl_opaque");
        return it->second;
    }
    std::string compareOperand(const SE& arg, const std::string& text) {
        return arg->kind == SExpr::Const && arg->dtype == DType::F32 ? comparedConstant(text) : text;
    }

    // Records a choice of the kernel's plan (once).
    void choose(ChoiceKind kind, std::string subject, std::string reason) {
        Choice c{kind, std::move(subject), std::move(reason)};
        if (std::find(plan_.begin(), plan_.end(), c) == plan_.end()) plan_.push_back(std::move(c));
    }
    // The interleave pragma for a loop that calls costly math, and the choice.
    std::string interleave(const std::string& body, const std::string& indent, const std::string& loop = "the element loop") {
        std::string fn = costlyCallIn(body);
        if (fn.empty()) return {};
        choose(ChoiceKind::Interleave, loop, "it calls " + fn + ": bound by the math's dependency chains, not by memory");
        return indent + "#pragma clang loop interleave_count(4)\n";
    }

    std::string mathCall(const char* fn, const std::vector<std::string>& a) {
        math_.insert(fn);
        std::string r = std::string(fn) + "(";
        for (size_t i = 0; i < a.size(); ++i) r += (i ? ", " : "") + a[i];
        return r + ")";
    }

    // Whether e has one value for the whole row: built of constants, scalars and the row's
    // finished reductions only (a conservative answer: any other read says no).
    bool rowFixed(const SE& e, int depth = 0) const {
        if (depth > 64) return false;
        switch (e->kind) {
        case SExpr::Const:
        case SExpr::Scalar: return true;
        case SExpr::Index: return false;
        case SExpr::Load: {
            const Node& m = p_.nodes[e->buffer];
            if (!members_.count(m.id)) return false;
            if (m.kind == NodeKind::Reduction) return redVar_.count(m.id) > 0;
            return rowFixed(loadedBody(e), depth + 1);
        }
        default: break;
        }
        for (auto& a : e->args)
            if (!rowFixed(a, depth + 1)) return false;
        return true;
    }

    // No loads and no scalar arguments: constants and sizes only.
    static bool dataFree(const SE& e) {
        if (e->kind == SExpr::Load || e->kind == SExpr::Scalar) return false;
        for (auto& a : e->args)
            if (!dataFree(a)) return false;
        return true;
    }

    std::string expr(const SE& e, Scope& sc) {
        // A value of the two-stage loop's first stage, read back from its block array.
        if (e->kind == SExpr::Load && !preset_.empty())
            if (auto it = preset_.find(keyOf(e)); it != preset_.end()) return emitLine(sc, e->dtype, it->second);
        // A value fixed for the row (layer_norm's 1 / sqrt(var + eps)) is computed once, before
        // the row's loops, not per element.
        if (e->kind == SExpr::Call && rowScope_ && &sc != rowScope_ && stage_ > 0 && rowFixed(e)) return expr(e, *rowScope_);
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
                return expr(loadedBody(e), sc);
            }
            bufferIndex(m.id, false);
            IE off = offsetExpr(m.id, e->index);
            if (recording()) rowLoads_.emplace(m.name + "[" + str(off) + "]", std::make_pair(m.id, off));
            return emitLine(sc, m.dtype, m.name + "[" + idx(off) + "]");
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
        // A costly value that an earlier loop of this row computed and kept: read it back.
        std::string key;
        Stash* keep = nullptr;
        if (stage_ > 0 && !rowVar_.empty() && costlyCall(e->op)) {
            key = keyOf(e);
            readInStage_[key].insert(stage_);
            if (auto it = stash_.find(key); it != stash_.end()) {
                if (it->second.stage < stage_) return emitLine(sc, e->dtype, it->second.name + "[" + rowVar_ + "]");
                if (it->second.stage == stage_) keep = &it->second;
            }
        }
        std::vector<std::string> a;
        for (auto& x : e->args) a.push_back(expr(x, sc));
        const Op op = e->op;
        const bool literalBound = e->args.size() > 1 && nonNanLiteral(e->args[1]);
        std::string rhs;
        if ((op == Op::DivGe1 || (op == Op::Div && dataFree(e->args[1]))) && e->dtype == DType::F32 && rowValues_.count(a[1])) {
            // a divisor fixed for the whole row (softmax's sum): one reciprocal per row, a multiply
            // per element. Only where 1 / divisor cannot overflow: softmax's sum is at least 1
            // (div_ge1), a size is at least 1; a divisor computed from data may be below 2^-128,
            // where x * (1 / s) is inf and x / s is not (exp(x) / exp(x).sum() near x = -100)
            std::string r = emitLine(*rowScope_, DType::F32, opaque("1.0f / " + a[1]));
            rowValues_.insert(r);
            choose(ChoiceKind::RowValue, "1 / " + a[1], "a divisor fixed for the row: one reciprocal per row, a multiply per element");
            rhs = a[0] + " * " + r;
        } else if (const char* sym = infixSymbol(op)) {
            if (op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge)
                for (size_t i = 0; i < 2; ++i) a[i] = compareOperand(e->args[i], a[i]);
            rhs = a[0] + " " + sym + " " + a[1];
        } else switch (op) {
            case Op::SubOrdered: rhs = "__builtin_fmaf(" + a[1] + ", -1.0f, " + a[0] + ")"; break; // a - b, never reassociated
            case Op::MulAdd: rhs = "__builtin_fmaf(" + a[0] + ", " + a[1] + ", " + a[2] + ")"; break; // one rounding, as eager's
            case Op::Neg: rhs = "-" + a[0]; break;
            case Op::Not: rhs = "!" + a[0]; break;
            case Op::Reciprocal: rhs = "1.0f / " + a[0]; break;
            case Op::Relu: rhs = a[0] + " < " + comparedConstant("0.0f") + " ? 0.0f : " + a[0]; break; // NaN stays NaN: the compare is false
            case Op::Max:
            case Op::ClampMin:
                rhs = literalBound ? a[0] + " < " + comparedConstant(a[1]) + " ? " + a[1] + " : " + a[0] : mathCall("fl_max", a);
                break;
            case Op::Min:
            case Op::ClampMax:
                rhs = literalBound ? a[0] + " > " + comparedConstant(a[1]) + " ? " + a[1] + " : " + a[0] : mathCall("fl_min", a);
                break;
            case Op::Trunc: rhs = "__builtin_truncf(" + a[0] + ")"; break;
            default: rhs = mathCall((std::string("fl_") + graph::opName(op)).c_str(), a);
            }
        if (&sc == rowScope_ && e->dtype == DType::F32 &&
            (op == Op::Reciprocal || op == Op::Rsqrt || ((op == Op::Div || op == Op::DivGe1) && !exactReciprocal(e->args[1])))) {
            rhs = opaque(rhs);
            choose(ChoiceKind::RowValue, std::string("fl_") + graph::opName(op) + " of " + a.back(),
                   "fixed for the row: computed once before the element loops, hidden from the optimizer so that it stays once per row");
        }
        std::string v = emitLine(sc, e->dtype, rhs);
        if (keep) {
            choose(ChoiceKind::KeptValue, keep->name + " (fl_" + std::string(graph::opName(e->op)) + ")",
                   "costly, and a later loop of the row reads it again: kept for the row rather than computed twice");
            std::string line = keep->name + "[" + rowVar_ + "] = " + v + ";";
            if (sc.find(line).empty()) {
                *sc.out += sc.indent + line + "\n";
                sc.cse[line] = v;
            }
        }
        return v;
    }

    // The body of the kernel's own node that load e reads, at e's coordinates: the value inlined.
    SE loadedBody(const SE& e) const {
        std::map<std::string, IE> sub;
        for (size_t i = 0; i < e->index.size(); ++i) sub["x" + std::to_string(i)] = e->index[i];
        return ssubstitute(p_.nodes[e->buffer].body, sub);
    }
    // The node's body in the kernel's variables.
    SE placedBody(const Node& n) { return ssubstitute(n.body, fuse::place(n, g_.domain).vars); }
    // Output coordinates of a stored node in the kernel's variables.
    std::vector<IE> outCoords(const Node& n) {
        Placement pl = fuse::place(n, g_.domain);
        std::vector<IE> c;
        if (n.kind == NodeKind::Reduction) {
            c.assign(n.shape.size(), iconst(0));
            for (size_t k = 0; k < n.keptPos.size(); ++k) c[n.keptPos[k]] = pl.vars.at("x" + std::to_string(k));
            return c;
        }
        for (size_t i = 0; i < n.shape.size(); ++i) c.push_back(pl.vars.at("x" + std::to_string(i)));
        return c;
    }
    void store(const Node& n, const std::string& value, Scope& sc) {
        int bi = bufferIndex(n.id, true);
        (void)bi;
        IE off = offsetExpr(n.id, outCoords(n));
        if (recording()) rowStores_.emplace(n.name + "[" + str(off) + "]", std::make_pair(n.id, off));
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

    // Prefetches, for the block of kLanes elements at b0 of a pointwise loop over xl, of the
    // unit-stride reads and writes kBlock elements further on (the next row block: past the row's
    // end the address is another row's or none, and a prefetch is only a hint). The writes are
    // fetched for writing (prefetchw): a store to a line not in the cache first reads it, and
    // those reads otherwise start only when the stores reach them. pointwise_chain's kernel alone,
    // two threads, 2^22 floats, 4 A/B pairs: 2.65-3.15 -> 2.50-3.00 ms (medians), faster in all 4.
    // "" when there are none.
    std::string pointwisePrefetches(const std::string& xl) {
        std::string r;
        auto ahead = [&](const std::map<std::string, std::pair<int, IE>>& accesses, const char* rw) {
            for (auto& [key, access] : accesses) {
                if (!unitStride(access.second, xl)) continue;
                IE at = substitute(access.second, {{xl, iadd(iadd(ivar("b0"), iconst(kBlock)), ivar("c"))}});
                r += "            for (long c = 0; c < " + std::to_string(kLanes) + "; c += " + std::to_string(perLine(access.first)) +
                     ") __builtin_prefetch(&" + p_.nodes[access.first].name + "[" + idx(at) + "]" + rw + ");\n";
            }
        };
        ahead(rowLoads_, "");
        if (r.empty()) return r;
        size_t inputs = r.size();
        ahead(rowStores_, ", 1");
        return std::string("            // the next row block's inputs") + (r.size() > inputs ? " and outputs" : "") + ", fetched while this one computes\n" + r;
    }

    // Calls f on e and its sub-expressions, the bodies of inlined loads of the kernel's own
    // pointwise nodes included, but not below loads of node `leaf`. False when the walk gave up
    // (more than `budget` visits: inlined bodies shared many times over).
    bool visit(const SE& e, int leaf, const std::function<void(const SE&)>& f, int& budget, int depth = 0) const {
        if (depth > 64 || --budget < 0) return false;
        f(e);
        if (e->kind == SExpr::Load) {
            if (e->buffer == leaf || !members_.count(e->buffer) || p_.nodes[e->buffer].kind == NodeKind::Reduction) return true;
            return visit(loadedBody(e), leaf, f, budget, depth + 1);
        }
        for (auto& a : e->args)
            if (!visit(a, leaf, f, budget, depth)) return false;
        return true;
    }

    // The value a pointwise loop computes one block ahead, as the first of two stages: a load of
    // one of the kernel's inlined float nodes that calls costly math, read (at one place) by
    // costly math of the rest, which shares no costly call with it: pointwise_chain's
    // buf2 = x * sigmoid(x), read by tanh. Of several such nodes, the one whose stages are the
    // most even (by the number of costly calls in the smaller), the later one in program order on
    // a tie; null when none.
    //
    // Each costly function ends in a divide (or a long polynomial) whose result the next one
    // waits on; within one block the processor finds too little independent work to hide that
    // chain. Computing the first stage of block n + 1 in the loop of block n's second stage puts
    // two independent chains side by side. pointwise_chain's kernel alone, one thread, 64K floats
    // in L2 (3000 calls, tenth percentiles of 5 runs): 0.0368 -> 0.0325 ms; splitting the same
    // stages into two loops over each block instead was slower (0.0379 ms).
    SE pipelineCut(const std::vector<std::pair<int, SE>>& outs) const {
        std::map<int, std::set<std::string>> at; // inlined node -> keys of its loads
        std::map<int, SE> load;
        SE best;
        size_t bestEven = 0;
        int budget = 200000;
        for (auto& [stored, o] : outs)
            if (!visit(o, -1, [&](const SE& e) {
                    if (e->kind != SExpr::Load || !members_.count(e->buffer)) return;
                    const Node& m = p_.nodes[e->buffer];
                    if (m.kind != NodeKind::Pointwise || s_.stored[m.id] || e->dtype != DType::F32) return;
                    at[m.id].insert(keyOf(e));
                    load[m.id] = e;
                }, budget))
                return nullptr;
        for (auto n = g_.nodes.rbegin(); n != g_.nodes.rend(); ++n) {
            if (!at.count(*n) || at[*n].size() != 1) continue;
            std::set<std::string> first, second;
            bool feeds = false, whole = true; // whole: no walk gave up
            auto costly = [](const SE& e) { return e->kind == SExpr::Call && costlyCall(e->op); };
            whole = visit(loadedBody(load[*n]), -1, [&](const SE& e) { if (costly(e)) first.insert(keyOf(e)); }, budget);
            for (auto& [stored, o] : outs)
                if (whole && !visit(o, *n, [&](const SE& e) {
                        if (!costly(e)) return;
                        second.insert(keyOf(e));
                        for (auto& a : e->args)
                            if (!visit(a, *n, [&](const SE& x) { feeds = feeds || (x->kind == SExpr::Load && x->buffer == *n); }, budget)) whole = false;
                    }, budget))
                    whole = false;
            if (!whole) return nullptr;
            bool shared = std::any_of(first.begin(), first.end(), [&](const std::string& key) { return second.count(key) > 0; });
            size_t even = std::min(first.size(), second.size());
            if (!first.empty() && feeds && !shared && even > bestEven) best = load[*n], bestEven = even;
        }
        return best;
    }

    // A pointwise loop over [j0, j1) in two stages (see pipelineCut): the first stage of its first
    // kLanes elements, then per block of kLanes, the first stage of the next block beside the
    // second stage of this one, each block's first-stage values kept in a small array. `ahead`:
    // the block loop's prefetches ("" for none).
    std::string twoStageLoops(const std::vector<std::pair<int, SE>>& outs, const SE& cut, const std::string& xl, const std::string& ahead) {
        const std::string L = std::to_string(kLanes);
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
            preset_[keyOf(cut)] = "fl_this[" + xl + " - b0]";
            for (auto& [n, e] : outs) store(p_.nodes[n], expr(e, sc), sc);
            preset_.clear();
            return text;
        };
        std::string out;
        choose(ChoiceKind::TwoStage, cn.name + " (" + cn.what + ")",
               "chained costly math: it is computed a block ahead, beside the rest of the block before, so two independent chains keep the vector units busy");
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
        out += interleave(body, "            ", "the first block's first stage");
        out += "            for (long " + xl + " = j0; " + xl + " < b1; ++" + xl + ") {\n" + body + "            }\n";
        out += "        }\n";
        out += "        for (long b0 = j0; b0 < j1; b0 += " + L + ") {\n";
        out += ahead;
        out += "            const long b1 = b0 + " + L + " < j1 ? b0 + " + L + " : j1;\n";
        out += "            const long b2 = b1 + " + L + " < j1 ? b1 + " + L + " : j1;\n";
        out += "            const long both = b0 + (b2 - b1); // this block's elements with a next-block partner\n";
        std::string both = firstStage(ssubstitute(cut, {{xl, iadd(ivar(xl), iconst(kLanes))}}), "fl_next", "b0", "                ");
        both = secondStage("                ", both);
        out += "            for (long " + xl + " = b0; " + xl + " < both; ++" + xl + ") {\n" + both + "            }\n";
        tmp_ = 0;
        std::string rest = secondStage("                ");
        out += interleave(rest, "            ", "the last block's second stage");
        out += "            for (long " + xl + " = both; " + xl + " < b1; ++" + xl + ") {\n" + rest + "            }\n";
        out += "            " + T + "* const fl_done = fl_this;\n";
        out += "            fl_this = fl_next;\n";
        out += "            fl_next = fl_done;\n";
        out += "        }\n    }\n";
        return out;
    }

    std::string pointwiseBody(Kernel& k) {
        Shape outer = g_.domain.outer;
        if (outer.empty()) outer.push_back(iconst(1));
        size_t last = outer.size() - 1;
        IE lastDim = outer[last];
        int64_t lastConst = 0;
        bool blocked = !(constValue(lastDim, lastConst) && lastConst <= kBlock);
        IE nblk = blocked ? idiv(iadd(lastDim, iconst(kBlock - 1)), iconst(kBlock)) : iconst(1);
        k.rows = imul(product(outer, 0, last), nblk);
        k.costPerRow = blocked ? kBlock : std::max<int64_t>(1, lastConst);
        std::string out;
        std::string body;
        std::string xl = "x" + std::to_string(last);
        // A blocked loop that calls costly math is bound by it, and the hardware prefetchers do
        // not run far enough ahead of it: it goes in blocks of kLanes, each fetching the inputs
        // one row block (kBlock elements) ahead. pointwise_chain's kernel alone, one thread,
        // streaming 16 MiB, 6 A/B pairs: 5.35-5.63 -> 4.92-5.29 ms (first quartiles; a second
        // set of 6 was within the noise); two threads, 8 pairs: faster in 5 by the minimum and
        // in 6 by the median.
        Scope sc{"            ", &body, {}, nullptr};
        pointwiseLoads_ = blocked;
        std::vector<std::pair<int, SE>> outs;
        for (int n : g_.nodes) {
            const Node& nd = p_.nodes[n];
            if (!s_.stored[n]) continue;
            outs.emplace_back(n, placedBody(nd));
            store(nd, expr(outs.back().second, sc), sc);
        }
        pointwiseLoads_ = false;
        std::string ahead = blocked && latencyBound(body) ? pointwisePrefetches(xl) : "";
        if (!ahead.empty())
            choose(ChoiceKind::PrefetchAhead, "the next row block",
                   "a blocked loop bound by math (" + costlyCallIn(body) + "): the hardware prefetchers do not run far enough ahead of it");
        rowLoads_.clear();
        rowStores_.clear();
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
        out += "    for (long q = begin; q < end; ++q) {\n";
        if (blocked) {
            std::string nb = idx(nblk);
            out += "        const long row = q / " + nb + ";\n";
            out += "        const long j0 = (q % " + nb + ") * " + std::to_string(kBlock) + ";\n";
            out += "        const long j1 = j0 + " + std::to_string(kBlock) + " < " + idx(lastDim) + " ? j0 + " + std::to_string(kBlock) + " : " + idx(lastDim) + ";\n";
            out += unravel(outer, "row", "        ", last);
            if (!ahead.empty()) {
                if (SE cut = pipelineCut(outs)) return out + twoStageLoops(outs, cut, xl, ahead);
                std::string L = std::to_string(kLanes);
                out += "        for (long b0 = j0; b0 < j1; b0 += " + L + ") {\n";
                out += ahead;
                out += "            const long b1 = b0 + " + L + " < j1 ? b0 + " + L + " : j1;\n";
                out += interleave(body, "            ");
                out += "            for (long " + xl + " = b0; " + xl + " < b1; ++" + xl + ") {\n";
                out += body + "            }\n        }\n    }\n";
                return out;
            }
            out += interleave(body, "        ");
            out += "        for (long " + xl + " = j0; " + xl + " < j1; ++" + xl + ") {\n";
        } else {
            out += unravel(outer, "q", "        ", last);
            // a row of at least two blocks is worth the two stages (one block has nothing to overlap)
            if (lastConst >= 2 * kLanes && latencyBound(body))
                if (SE cut = pipelineCut(outs)) {
                    out += "        const long j0 = 0;\n";
                    out += "        const long j1 = " + idx(lastDim) + ";\n";
                    return out + twoStageLoops(outs, cut, xl, "");
                }
            out += interleave(body, "        ");
            out += "        for (long " + xl + " = 0; " + xl + " < " + idx(lastDim) + "; ++" + xl + ") {\n";
        }
        out += body + "        }\n    }\n";
        return out;
    }

    // Reductions needed (directly or through inlined values) by an expression.
    void reductionDeps(const SE& e, std::set<int>& out, int depth = 0) {
        if (depth > 64) return;
        if (e->kind == SExpr::Load && members_.count(e->buffer)) {
            const Node& m = p_.nodes[e->buffer];
            if (m.kind == NodeKind::Reduction) out.insert(m.id);
            else reductionDeps(m.body, out, depth + 1);
        }
        for (auto& a : e->args) reductionDeps(a, out, depth);
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

    // The reductions and the stored nodes of loop st of a reduction kernel.
    void stageNodes(const std::map<int, int>& stage, int st, std::vector<int>& reds, std::vector<int>& stores) const {
        for (auto& [n, s] : stage)
            if (s == st) (p_.nodes[n].kind == NodeKind::Reduction ? reds : stores).push_back(n);
    }

    // Large outputs of a store-only loop that is not bound by math, when nothing later in the
    // graph reads them: the row goes to a local array, then to memory past the caches
    // (fl_stream_row); rows must be whole vectors. Values read again stay in the caches.
    // Measured with the kernels alone, 2 threads, 4 A/B pairs: softmax_rows 3.2-4.3 -> 2.5-3.8
    // ms, masked_softmax 2.9-5.2 -> 2.0-3.2, rmsnorm 1.7-2.1 -> 1.3-1.8; after
    // layernorm_gelu_residual's erf loop it was slower (3.0-3.6 -> 3.3-4.0), so loops that
    // compute costly math keep ordinary stores. Only loops that also read the row from memory:
    // where a loop reads only values kept from an earlier loop (softmax's exp), the row's
    // non-temporal stores go out in one burst that no load overlaps, and on the Emerald Rapids
    // host of 2026-12-04 softmax_rows' kernel took 1.44-1.47 ms with them against 1.14-1.17 ms
    // with ordinary stores (alone, 2 threads, 3 pairs; masked_softmax 1.50-1.60 against
    // 1.49-1.52), while rmsnorm, whose store loop reads x, kept its gain (fuselab bench, 3 pairs:
    // cached 0.84-0.86 ms streamed, 1.11-1.23 ms not). Those figures predate opaque() (a divide
    // per element in rmsnorm's loop then); only outputs too large for the last-level cache are
    // streamed now (streamBytes()). Returns node -> its row's first element.
    std::map<int, std::string> streamedRows(const std::vector<int>& reds, const std::vector<int>& stores, int st, const std::string& rl) {
        const Domain& d = g_.domain;
        std::map<int, std::string> streamed;
        int64_t rowLen = 0;
        bool memoryBound = true, readsMemory = false;
        for (int n : stores) {
            memoryBound = memoryBound && !computesCostly(placedBody(p_.nodes[n]), st);
            readsMemory = readsMemory || readsAlongRow(placedBody(p_.nodes[n]), st, rl);
        }
        if (!memoryBound || !readsMemory || !reds.empty() || d.inner.size() != 1 || !constValue(d.inner[0], rowLen) || rowLen % 16 != 0 || rowLen > kRowStash) return streamed;
        for (int n : stores) {
            const Node& nd = p_.nodes[n];
            int64_t elems = 1, v = 0;
            bool fixed = true;
            for (auto& dim : nd.shape) fixed = fixed && constValue(dim, v), elems *= v;
            IE off = offsetExpr(n, outCoords(nd));
            if (!readLater(n) && fixed && nd.dtype == DType::F32 && elems * 4 >= streamBytes() && unitStride(off, rl))
                streamed[n] = idx(substitute(off, {{rl, iconst(0)}}));
        }
        return streamed;
    }

    // A reduction's kLanes accumulators folded into NAME_v by a fixed tree, lanes l and l + w for
    // w = 32, 16, ..., 1: the two vector-wide steps on the array, the last four on named values.
    // Written as loops down to w = 1, the narrow steps went through the array in pieces of 8, 4,
    // 2 and 1 lanes, each read waiting on a wider store, and took 40% of masked_softmax's kernel
    // (rows of 256; 0.042 -> 0.032 ms per 256 rows on one thread in L2, the same sums).
    std::string laneTree(const Node& nd) {
        const std::string acc = nd.name + "_acc";
        std::string out;
        int w = kLanes / 2;
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

    // Long: the reduction's loop nest and its variants (two-stage, rows kept), printed in source
    // order.
    std::string reductionBody(Kernel& k) {
        const Domain& d = g_.domain;
        k.rows = product(d.outer);
        int64_t innerConst = 1;
        for (auto& r : d.inner) {
            int64_t v;
            innerConst *= constValue(r, v) ? std::max<int64_t>(v, 1) : 1024;
        }
        k.costPerRow = innerConst;
        // stages: a reduction runs in the loop after the reductions it reads
        std::map<int, int> stage;
        int stages = 1;
        std::vector<int> rowLevel;
        for (int n : g_.nodes) {
            const Node& nd = p_.nodes[n];
            std::set<int> deps;
            reductionDeps(nd.body, deps);
            int st = 1;
            for (int dep : deps) st = std::max(st, stage[dep] + 1);
            if (nd.kind == NodeKind::Pointwise && fuse::place(nd, d).rowLevel) {
                rowLevel.push_back(n);
                continue;
            }
            if (nd.kind == NodeKind::Pointwise && !s_.stored[n]) continue; // computed where it is read
            stage[n] = st;
            stages = std::max(stages, st);
        }
        std::string out = "    for (long q = begin; q < end; ++q) {\n";
        out += unravel(d.outer, "q", "        ", d.outer.size());
        Scope row{"        ", &out, {}, nullptr};
        rowScope_ = &row;
        size_t nInner = d.inner.size();
        std::string rl = "r" + std::to_string(nInner - 1);
        int64_t rowLen = 0;
        if (nInner == 1 && constValue(d.inner[0], rowLen) && rowLen <= kRowStash) {
            rowVar_ = rl;
            int i = 0;
            for (auto& [key, st] : stash_) {
                st.name = "kept" + std::to_string(i++);
                out += "        float " + st.name + "[" + std::to_string(rowLen) + "]; // a value loop " + std::to_string(st.stage) +
                       " computes, kept for the later loops of the row\n";
            }
        } else stash_.clear();
        if (nInner == 1 && prefetchStage_ > 0) {
            // rows streamed past the caches are not fetched for writing
            for (int st = 1; st <= stages; ++st) {
                std::vector<int> reds, stores;
                stageNodes(stage, st, reds, stores);
                for (auto& [n, base] : streamedRows(reds, stores, st, rl)) rowStores_.erase(p_.nodes[n].name + "[" + str(offsetExpr(n, outCoords(p_.nodes[n]))) + "]");
            }
            planPrefetches(rl);
        }
        if (!prefetches_.empty()) {
            out += "        const long nq = q + 1; // the next row\n";
            out += unravel(d.outer, "nq", "        ", d.outer.size(), "nx");
        }
        for (int st = 1; st <= stages; ++st) {
            std::vector<int> reds, stores;
            stageNodes(stage, st, reds, stores);
            if (reds.empty() && stores.empty()) continue;
            // the loop bodies first: values they need once per row are emitted before the loop
            std::string ind = "            ";
            for (size_t i = 0; i + 1 < nInner; ++i) ind += "    ";
            std::string R = idx(d.inner[nInner - 1]);
            stage_ = st;
            std::map<int, std::string> streamed = streamedRows(reds, stores, st, rl); // node -> its row's first element
            for (auto& [n, base] : streamed)
                choose(ChoiceKind::Streamed, p_.nodes[n].name,
                       "an output too large for the last-level cache beside its input, stored by a loop that reads its row from memory and is "
                       "not bound by math, and read by nothing later: written past the caches");
            if (!streamed.empty()) streams_ = true;
            auto loopBody = [&](const std::string& lane, const std::string& bodyIndent) {
                std::string text;
                Scope sc{bodyIndent, &text, {}, &row};
                for (int n : reds) {
                    const Node& nd = p_.nodes[n];
                    SE body = placedBody(nd);
                    std::string acc = nd.name + "_acc[" + lane + "]";
                    if (nd.reduceOp == Op::Sum && body->kind == SExpr::Call && body->op == Op::MulUnrounded) {
                        // a sum of products that eager accumulates in double: each product added unrounded
                        std::string a0 = expr(body->args[0], sc), a1 = expr(body->args[1], sc);
                        text += bodyIndent + acc + " = __builtin_fmaf(" + a0 + ", " + a1 + ", " + acc + ");\n";
                        continue;
                    }
                    std::string v = expr(body, sc);
                    text += bodyIndent + acc + " = " + combineExpr(nd.reduceOp, acc, v) + ";\n";
                }
                for (int n : stores) {
                    std::string v = expr(placedBody(p_.nodes[n]), sc);
                    if (streamed.count(n)) {
                        bufferIndex(n, true);
                        text += bodyIndent + p_.nodes[n].name + "_row[" + rl + "] = " + v + ";\n";
                    } else store(p_.nodes[n], v, sc);
                }
                if (!latencyStage_ && latencyBound(text)) latencyStage_ = st;
                return text;
            };
            bool prefetch = st == prefetchStage_ && !prefetches_.empty();
            if (prefetch)
                choose(ChoiceKind::PrefetchAhead, "loop " + std::to_string(st),
                       std::string("the first loop bound by math latency fetches the next row's inputs") +
                           (std::any_of(prefetches_.begin(), prefetches_.end(), [](const Prefetch& pf) { return pf.write; }) ? ", and its outputs for writing" : ""));
            bool blockedStores = prefetch && reds.empty(); // blocks of kLanes, each prefetching ahead
            std::string lanes = reds.empty() ? "" : loopBody("l", ind + "        ");
            std::string tail = loopBody("0", ind + (blockedStores ? "        " : "    "));
            out += "        // loop " + std::to_string(st) + ":";
            for (int n : reds) out += " " + p_.nodes[n].name + " (" + graph::opName(p_.nodes[n].reduceOp) + " of " + p_.nodes[n].what + ")";
            for (int n : stores) out += " " + p_.nodes[n].name + " (" + p_.nodes[n].what + ")";
            out += "\n";
            for (int n : reds) {
                const Node& nd = p_.nodes[n];
                out += "        float " + nd.name + "_acc[" + std::to_string(kLanes) + "];\n";
                out += "        for (int l = 0; l < " + std::to_string(kLanes) + "; ++l) " + nd.name + "_acc[l] = " + initValue(nd.reduceOp) + ";\n";
            }
            out += "        {\n";
            for (auto& [n, base] : streamed)
                out += "            alignas(64) float " + p_.nodes[n].name + "_row[" + std::to_string(rowLen) + "];\n";
            ind = "            ";
            for (size_t i = 0; i + 1 < nInner; ++i) {
                out += ind + "for (long r" + std::to_string(i) + " = 0; r" + std::to_string(i) + " < " + idx(d.inner[i]) + "; ++r" + std::to_string(i) + ") {\n";
                ind += "    ";
            }
            if (!reds.empty()) {
                // kLanes independent accumulators: the lane loop vectorizes, and the order of
                // the additions is fixed by the source, whatever the compiler
                out += ind + "long " + rl + "b = 0;\n";
                out += ind + "for (; " + rl + "b + " + std::to_string(kLanes) + " <= " + R + "; " + rl + "b += " + std::to_string(kLanes) + ") {\n";
                if (prefetch) out += prefetchLines(ind + "    ");
                out += interleave(lanes, ind + "    ", "loop " + std::to_string(st));
                out += ind + "    for (long l = 0; l < " + std::to_string(kLanes) + "; ++l) {\n";
                out += ind + "        const long " + rl + " = " + rl + "b + l;\n";
                out += lanes;
                out += ind + "    }\n" + ind + "}\n";
                out += ind + "for (long " + rl + " = " + rl + "b; " + rl + " < " + R + "; ++" + rl + ") {\n";
                out += tail;
                out += ind + "}\n";
            } else if (blockedStores) {
                std::string K = std::to_string(kLanes);
                out += ind + "for (long " + rl + "b = 0; " + rl + "b < " + R + "; " + rl + "b += " + K + ") {\n";
                out += prefetchLines(ind + "    ");
                out += ind + "    const long " + rl + "e = " + rl + "b + " + K + " < " + R + " ? " + rl + "b + " + K + " : " + R + ";\n";
                out += interleave(tail, ind + "    ", "loop " + std::to_string(st));
                out += ind + "    for (long " + rl + " = " + rl + "b; " + rl + " < " + rl + "e; ++" + rl + ") {\n";
                out += tail;
                out += ind + "    }\n" + ind + "}\n";
            } else {
                out += interleave(tail, ind, "loop " + std::to_string(st));
                out += ind + "for (long " + rl + " = 0; " + rl + " < " + R + "; ++" + rl + ") {\n";
                out += tail;
                out += ind + "}\n";
            }
            for (size_t i = 0; i + 1 < nInner; ++i) {
                ind.resize(ind.size() - 4);
                out += ind + "}\n";
            }
            for (auto& [n, base] : streamed)
                out += "            fl_stream_row(&" + p_.nodes[n].name + "[" + base + "], " + p_.nodes[n].name + "_row, " + std::to_string(rowLen) + ");\n";
            out += "        }\n";
            for (int n : reds) {
                const Node& nd = p_.nodes[n];
                out += laneTree(nd);
                redVar_[n] = nd.name + "_v";
                rowValues_.insert(nd.name + "_v");
                if (s_.stored[n]) store(nd, nd.name + "_v", row);
            }
        }
        stage_ = 0;
        for (int n : rowLevel)
            if (s_.stored[n]) store(p_.nodes[n], expr(placedBody(p_.nodes[n]), row), row);
        out += "    }\n";
        return out;
    }
};

} // namespace

std::vector<Kernel> generate(const Program& p, const fuse::Schedule& s, const std::vector<int>& order) {
    std::vector<Kernel> out;
    for (int unit : order) {
        if (unit < 0) continue;
        const Group& g = s.groups[unit];
        std::string name = "cpp_fused";
        std::set<std::string> seen;
        int parts = 0;
        for (int n : g.nodes) {
            const std::string& w = p.nodes[n].what;
            if (seen.insert(w).second && parts++ < 4) name += "_" + w;
        }
        name += "_" + std::to_string(out.size());
        KernelWriter kw(p, s, g);
        out.push_back(kw.write(name));
    }
    return out;
}

std::string translationUnit(const std::vector<Kernel>& kernels) {
    std::string tu = "// Fuselab kernels: one namespace per kernel, each self-contained.\n";
    for (size_t i = 0; i < kernels.size(); ++i) tu += "namespace k" + std::to_string(i) + " {\n" + kernels[i].source + "} // namespace k" + std::to_string(i) + "\n";
    return tu;
}

} // namespace fl::codegen
