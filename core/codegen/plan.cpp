// The planner (see plan.h): walks a kernel's expressions in the order the emitter prints them and
// decides, on the loop IR, everything the printing needs decided. Each decision below says what
// it was measured to gain; core/codegen/README.md lists them.
#include "core/codegen/plan.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "core/codegen/view.h"
#include "core/graph/ops.h"

namespace fl::codegen {

using namespace lower;
using fuse::Domain;
using fuse::Group;
using view::kLanes;

const char* choiceName(ChoiceKind k) {
    static constexpr const char* names[] = {"kept value", "row value", "interleave", "prefetch ahead", "two stages", "streamed", "opaque constant"};
    return names[size_t(k)];
}

const KeptValue* KernelPlan::keptValue(const std::string& value) const {
    for (auto& k : kept)
        if (k.value == value) return &k;
    return nullptr;
}

bool KernelPlan::streams() const {
    return std::any_of(loops.begin(), loops.end(), [](const ReductionLoop& l) { return !l.streamed.empty(); });
}

namespace {

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

// A buffer access of a loop: "buf[offset]" -> node, offset (ordered by that text, as the
// prefetches are).
using Accesses = std::map<std::string, std::pair<int, IE>>;

// The first of the costly functions a loop calls, in the op table's order ("fl_tanh"), or "".
std::string firstCostly(const std::set<Op>& calls) { return calls.empty() ? std::string() : view::mathName(*calls.begin()); }

class Planner {
public:
    Planner(const Program& p, const fuse::Schedule& s, const Group& g, const Target& t)
        : p_(p), s_(s), g_(g), t_(t), members_(g.nodes.begin(), g.nodes.end()) {
        plan_.group = g.id;
        plan_.reduction = g.domain.isReduction();
        plan_.lanes = kLanes;
        plan_.block = view::kBlock;
    }

    KernelPlan run() {
        if (plan_.reduction) planReduction();
        else planPointwise();
        return std::move(plan_);
    }

private:
    const Program& p_;
    const fuse::Schedule& s_;
    const Group& g_;
    const Target& t_;
    std::set<int> members_;
    KernelPlan plan_;

    // ---- the walk (walk()): what the loop being walked computes, as the emitter will print it
    int loop_ = 0;                  // the reduction loop walked (0: none, or a pointwise kernel)
    bool keepsRows_ = false;        // the row is short and of constant length: costly values can be kept
    bool firstPass_ = false;        // finding which loops compute which costly values: no kept values yet
    bool recording_ = false;        // noting the buffer accesses (loads_, stores_)
    std::string skip_;              // a load the two-stage loop reads from its block array (valueKey)
    std::set<int> finished_;        // reductions whose loop has run: their values are the row's
    std::set<std::string> rowKeys_; // casts and selects computed in the row's scope, which the emitter
                                    // finds again when a loop computes them
    std::set<Op> costly_;           // costly functions the walked loop calls
    std::map<std::string, std::set<int>> computedIn_; // costly value -> loops that compute it
    Accesses loads_, stores_;
    std::map<std::string, size_t> rowChoices_; // a row value's choice by subject and operand

    // Records a choice (once) and returns its index.
    size_t choose(ChoiceKind kind, std::string subject, std::string reason) {
        Choice c{kind, std::move(subject), std::move(reason)};
        auto it = std::find(plan_.choices.begin(), plan_.choices.end(), c);
        if (it != plan_.choices.end()) return size_t(it - plan_.choices.begin());
        plan_.choices.push_back(std::move(c));
        return plan_.choices.size() - 1;
    }
    // A row value's choice: its subject names an operand the emitter names (kOperand), once per
    // subject and operand.
    size_t chooseForOperand(const std::string& subject, const SE& operand, const std::string& reason) {
        auto [it, added] = rowChoices_.emplace(subject + "\n" + view::valueKey(operand), plan_.choices.size());
        if (added) plan_.choices.push_back({ChoiceKind::RowValue, subject, reason});
        return it->second;
    }

    // ------------------------------------------------------------------ the walk
    // Walks e as the emitter prints it (codegen.cpp, KernelWriter::expr): the same sub-expressions
    // in the same order, so that choices are listed in the order the source shows them. Returns
    // whether e's printed value is one of the row's (a finished reduction, or a value computed in
    // the row's scope): a divisor that is one becomes one reciprocal per row.
    bool walk(const SE& e, Where w) {
        if (!skip_.empty() && e->kind == SExpr::Load && view::valueKey(e) == skip_) return false;
        // A value fixed for the row (layer_norm's 1 / sqrt(var + eps)) is computed once, before
        // the row's loops, not per element.
        if (e->kind == SExpr::Call && w == Where::Loop && loop_ > 0 && rowFixed(e)) {
            if (!firstPass_) plan_.rowValues.insert(view::valueKey(e));
            return walk(e, Where::Row);
        }
        switch (e->kind) {
        case SExpr::Const:
        case SExpr::Scalar:
        case SExpr::Index: return false;
        case SExpr::Load: return walkLoad(e, w);
        case SExpr::Cast:
        case SExpr::Where:
            for (auto& a : e->args) walk(a, w);
            return computedAt(e, w);
        case SExpr::Call: return walkCall(e, w);
        }
        return false;
    }

    bool walkLoad(const SE& e, Where w) {
        const Node& m = p_.nodes[e->buffer];
        for (auto& v : indexValues(*e)) walk(v, w); // an embedding's row number, printed before the load
        if (members_.count(m.id)) {
            if (m.kind == NodeKind::Reduction) return true; // the row's value
            return walk(view::loadedBody(p_, e), w);
        }
        if (recording_ && !hasValue(view::offsetExpr(p_, m.id, e->index))) { // gathers are not prefetched
            IE off = view::offsetExpr(p_, m.id, e->index);
            loads_.emplace(m.name + "[" + str(off) + "]", std::make_pair(m.id, off));
        }
        return w == Where::Row;
    }

    // Whether a cast or select printed at w is a value of the row: printed in the row's scope, or
    // in a loop that finds it printed there already.
    bool computedAt(const SE& e, Where w) {
        if (!plan_.reduction) return false;
        if (w == Where::Row) {
            rowKeys_.insert(view::valueKey(e));
            return true;
        }
        return rowKeys_.count(view::valueKey(e)) > 0;
    }

    bool walkCall(const SE& e, Where w) {
        const Op op = e->op;
        // A costly value that an earlier loop of this row computed and kept is read back. One
        // fixed for the row is not kept: it is computed once, in the row's scope (which has no
        // element to index a row array with).
        const KeptValue* keep = nullptr;
        if (loop_ > 0 && keepsRows_ && view::costlyCall(op)) {
            std::string key = view::valueKey(e);
            if (firstPass_) {
                if (w == Where::Loop) computedIn_[key].insert(loop_);
            } else if (const KeptValue* kv = plan_.keptValue(key)) {
                if (kv->loop < loop_) return w == Where::Row;
                if (kv->loop == loop_) keep = kv;
            }
        }
        std::vector<bool> rowArg;
        for (auto& a : e->args) rowArg.push_back(walk(a, w));
        // A divisor fixed for the whole row (softmax's sum): one reciprocal per row, a multiply per
        // element. Only where 1 / divisor cannot overflow: softmax's sum is at least 1 (div_ge1), a
        // size is at least 1; a divisor computed from data may be below 2^-128, where x * (1 / s)
        // is inf and x / s is not (exp(x) / exp(x).sum() near x = -100).
        const bool reciprocal = plan_.reduction && (op == Op::DivGe1 || (op == Op::Div && view::dataFree(e->args[1]))) &&
                                e->dtype == DType::F32 && rowArg[1];
        if (reciprocal && !firstPass_)
            plan_.reciprocals[{w, view::valueKey(e)}] =
                chooseForOperand(std::string("1 / ") + kOperand, e->args[1], "a divisor fixed for the row: one reciprocal per row, a multiply per element");
        if (!reciprocal) comparedConstants(e);
        // A row's reciprocal hidden from the optimizer. With reassociation allowed, clang rewrites
        // x * (1 / s) as x / s, one divide per element instead of one per row: on
        // layernorm_gelu_residual that divide took a fifth of the kernel's time (0.0313 -> 0.0259
        // ms per 64 rows, one thread).
        if (w == Where::Row && e->dtype == DType::F32 && !firstPass_ &&
            (op == Op::Reciprocal || op == Op::Rsqrt || ((op == Op::Div || op == Op::DivGe1) && !view::exactReciprocal(e->args[1]))))
            plan_.opaqueRowValues[view::valueKey(e)] =
                chooseForOperand(view::mathName(op) + " of " + kOperand, e->args.back(),
                                 "fixed for the row: computed once before the element loops, hidden from the optimizer so that it stays once per row");
        if (w == Where::Loop && view::costlyCall(op)) costly_.insert(op);
        if (op == Op::Sin || op == Op::Cos) plan_.versioned = true;
        if (keep)
            choose(ChoiceKind::KeptValue, keep->array + " (" + view::mathName(op) + ")",
                   "costly, and a later loop of the row reads it again: kept for the row rather than computed twice");
        return w == Where::Row;
    }

    // A float constant that a compare reads is printed as a value the optimizer cannot see, set
    // once before the loops. Clang 15 folds two clamps in a row, max(max(x, c), c) written as
    // selects, into the first even where they treat NaN differently: `x < 0 ? 0 : x` (relu, NaN
    // stays NaN) then `y > 0 ? y : 0` (a where, NaN becomes 0) gave NaN. Its min/max matching needs
    // one compared operand known not to be NaN, which a constant it cannot see is not; the compare
    // and select still vectorize (a compare with a broadcast register).
    void comparedConstants(const SE& e) {
        auto opaque = [&](const std::string& literal) {
            if (firstPass_ || std::count(plan_.opaqueConstants.begin(), plan_.opaqueConstants.end(), literal)) return;
            plan_.opaqueConstants.push_back(literal);
            choose(ChoiceKind::OpaqueConstant, literal, "a compare reads it: a constant the optimizer can see lets Clang 15 fold two clamps that treat NaN differently");
        };
        switch (e->op) {
        case Op::Lt:
        case Op::Le:
        case Op::Gt:
        case Op::Ge:
            for (size_t i = 0; i < 2; ++i)
                if (e->args[i]->kind == SExpr::Const && e->args[i]->dtype == DType::F32) opaque(view::floatLiteral(e->args[i]->c));
            break;
        case Op::Relu: opaque("0.0f"); break;
        case Op::Max:
        case Op::ClampMin:
        case Op::Min:
        case Op::ClampMax:
            if (e->args.size() > 1 && view::nonNanLiteral(e->args[1])) opaque(view::floatLiteral(e->args[1]->c));
            break;
        default: break;
        }
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
            if (!members_.count(m.id) || !indexValues(*e).empty()) return false;
            if (m.kind == NodeKind::Reduction) return finished_.count(m.id) > 0;
            return rowFixed(view::loadedBody(p_, e), depth + 1);
        }
        default: break;
        }
        for (auto& a : e->args)
            if (!rowFixed(a, depth + 1)) return false;
        return true;
    }

    // ------------------------------------------------------------------ reduction kernels
    // The loops of a reduction kernel: a reduction runs in the loop after the reductions it reads;
    // a stored pointwise node in the loop of what it reads; pointwise nodes over the rows only
    // after the loops.
    void planLoops() {
        const Domain& d = g_.domain;
        std::map<int, int> loopOf;
        int loops = 1;
        for (int n : g_.nodes) {
            const Node& nd = p_.nodes[n];
            std::set<int> deps;
            reductionDeps(nd.body, deps);
            int st = 1;
            for (int dep : deps) st = std::max(st, loopOf[dep] + 1);
            if (nd.kind == NodeKind::Pointwise && fuse::place(nd, d).rowLevel) {
                plan_.rowLevel.push_back(n);
                continue;
            }
            if (nd.kind == NodeKind::Pointwise && !s_.stored[n]) continue; // computed where it is read
            loopOf[n] = st;
            loops = std::max(loops, st);
        }
        for (int st = 1; st <= loops; ++st) {
            ReductionLoop l;
            l.index = st;
            for (auto& [n, s] : loopOf)
                if (s == st) (p_.nodes[n].kind == NodeKind::Reduction ? l.reductions : l.stores).push_back(n);
            if (!l.reductions.empty() || !l.stores.empty()) plan_.loops.push_back(l);
        }
    }

    // Reductions needed (directly or through inlined values) by an expression.
    void reductionDeps(const SE& e, std::set<int>& out, int depth = 0) const {
        if (depth > 64) return;
        if (e->kind == SExpr::Load && members_.count(e->buffer)) {
            const Node& m = p_.nodes[e->buffer];
            if (m.kind == NodeKind::Reduction) out.insert(m.id);
            else reductionDeps(m.body, out, depth + 1);
        }
        if (e->kind == SExpr::Load)
            for (auto& v : indexValues(*e)) reductionDeps(v, out, depth);
        for (auto& a : e->args) reductionDeps(a, out, depth);
    }

    // Walks one loop's reductions and stores (noting the stores when recording).
    void walkLoop(const ReductionLoop& l, const std::vector<int>& streamed) {
        const Domain& d = g_.domain;
        loop_ = l.index;
        for (int n : l.reductions) {
            const Node& nd = p_.nodes[n];
            SE body = view::placedBody(nd, d);
            if (view::sumOfProducts(nd, body)) {
                walk(body->args[0], Where::Loop);
                walk(body->args[1], Where::Loop);
            } else walk(body, Where::Loop);
        }
        for (int n : l.stores) {
            walk(view::placedBody(p_.nodes[n], d), Where::Loop);
            if (!std::count(streamed.begin(), streamed.end(), n)) recordStore(n);
        }
        for (int n : l.reductions) {
            finished_.insert(n);
            if (s_.stored[n]) recordStore(n);
        }
    }
    void recordStore(int n) {
        if (!recording_) return;
        IE off = view::offsetExpr(p_, n, view::outCoords(p_.nodes[n], g_.domain));
        stores_.emplace(p_.nodes[n].name + "[" + str(off) + "]", std::make_pair(n, off));
    }

    void planReduction() {
        const Domain& d = g_.domain;
        plan_.rows = product(d.outer);
        int64_t innerConst = 1;
        for (auto& r : d.inner) {
            int64_t v;
            innerConst *= constValue(r, v) ? std::max<int64_t>(v, 1) : 1024;
        }
        plan_.costPerRow = innerConst;
        planLoops();
        const std::string rl = view::reducedVar(d);
        int64_t rowLen = 0;
        if (d.inner.size() == 1 && constValue(d.inner[0], rowLen)) plan_.rowLength = rowLen;
        keepsRows_ = plan_.rowLength >= 0 && plan_.rowLength <= view::kRowStash;

        // First pass: which loops compute which costly values, the first loop bound by math, and
        // the buffer accesses of the loops.
        firstPass_ = recording_ = true;
        int mathLoop = 0;
        for (const ReductionLoop& l : plan_.loops) {
            walkLoop(l, streamedRows(l, rl));
            if (!mathLoop && !costly_.empty()) mathLoop = l.index;
            costly_.clear();
        }
        // A costly value (exp, tanh, ...) that a row's loop computes and a later loop of the same
        // row needs again is kept in a row array, so softmax computes exp once per element.
        for (auto& [key, loops] : computedIn_)
            if (loops.size() > 1) plan_.kept.push_back({key, "kept" + std::to_string(plan_.kept.size()), *loops.begin()});
        firstPass_ = recording_ = false;
        finished_.clear();
        rowKeys_.clear();

        if (d.inner.size() == 1 && mathLoop > 0) {
            for (const ReductionLoop& l : plan_.loops) // rows streamed past the caches are not fetched for writing
                for (int n : streamedRows(l, rl)) stores_.erase(p_.nodes[n].name + "[" + str(view::offsetExpr(p_, n, view::outCoords(p_.nodes[n], d))) + "]");
            planPrefetches(rl);
        }

        // Second pass: the choices, in the order the source shows them.
        const bool writes = std::any_of(plan_.prefetches.begin(), plan_.prefetches.end(), [](const Prefetch& pf) { return pf.write; });
        for (ReductionLoop& l : plan_.loops) {
            l.streamed = streamedRows(l, rl);
            for (int n : l.streamed)
                choose(ChoiceKind::Streamed, p_.nodes[n].name,
                       "an output too large for the last-level cache beside its input, stored by a loop that reads its row from memory and is "
                       "not bound by math, and read by nothing later: written past the caches");
            // The loop bound by math fetches the next row's inputs, one __builtin_prefetch per cache
            // line, so the memory of row q + 1 streams in while row q computes.
            l.prefetch = l.index == mathLoop && !plan_.prefetches.empty();
            if (l.prefetch)
                choose(ChoiceKind::PrefetchAhead, "loop " + std::to_string(l.index),
                       std::string("the first loop bound by math latency fetches the next row's inputs") + (writes ? ", and its outputs for writing" : ""));
            l.blocked = l.prefetch && l.reductions.empty(); // blocks of kLanes, each prefetching ahead
            walkLoop(l, l.streamed);
            l.interleave = interleave(costly_, "loop " + std::to_string(l.index));
            costly_.clear();
        }
        loop_ = 0;
        for (int n : plan_.rowLevel)
            if (s_.stored[n]) walk(view::placedBody(p_.nodes[n], d), Where::Row);
    }

    // A loop whose body calls costly math is bound by their dependency chains (the polynomial of
    // one vector waits on itself), not by memory: asking clang for four vectors at once,
    // interleaved instruction by instruction, keeps both vector ports busy. Measured on
    // pointwise_chain (sigmoid, tanh): 11.4 -> 5.9 ms on one thread. Other compilers ignore the
    // pragma. Returns the function named in the reason, "" when the loop calls none.
    std::string interleave(const std::set<Op>& calls, const std::string& loop) {
        std::string fn = firstCostly(calls);
        if (!fn.empty()) choose(ChoiceKind::Interleave, loop, "it calls " + fn + ": bound by the math's dependency chains, not by memory");
        return fn;
    }

    // The next row's addresses of the reads that move with the row and run along the reduced
    // dim, for a loop over blocks of kLanes starting at rNb (the outer vars of row q + 1 are nx0,
    // nx1, ...); the writes too when there are such reads. A prefetch is a hint: a wrong address
    // costs a little time, never a fault.
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
        auto plan = [&](const Accesses& accesses, bool write) {
            for (auto& [key, access] : accesses) {
                const IE& off = access.second;
                std::map<std::string, int64_t> e0 = env, e2 = env;
                e0[rl] = 0, e2[rl] = 0;
                for (size_t i = 0; i < d.outer.size(); ++i) e2["x" + std::to_string(i)] = 2;
                bool movesWithRow = evaluate(off, e2) != evaluate(off, e0);
                if (view::unitStride(p_, d, off, rl) && movesWithRow)
                    plan_.prefetches.push_back({access.first, substitute(off, next), view::perLine(p_.nodes[access.first].dtype), write});
            }
        };
        plan(loads_, false);
        if (!plan_.prefetches.empty()) plan(stores_, true);
    }

    // Whether computing e in loop `l` calls costly math (values kept from an earlier loop are
    // read, not computed): such a loop is bound by the math, and its stores stay ordinary.
    bool computesCostly(const SE& e, int l, int depth = 0) const {
        if (depth > 64) return true;
        if (e->kind == SExpr::Call && view::costlyCall(e->op)) {
            const KeptValue* kv = plan_.keptValue(view::valueKey(e));
            return !kv || kv->loop >= l;
        }
        if (e->kind == SExpr::Load)
            for (auto& v : indexValues(*e))
                if (computesCostly(v, l, depth)) return true;
        if (e->kind == SExpr::Load && members_.count(e->buffer) && p_.nodes[e->buffer].kind != NodeKind::Reduction)
            return computesCostly(view::loadedBody(p_, e), l, depth + 1);
        for (auto& a : e->args)
            if (computesCostly(a, l, depth)) return true;
        return false;
    }

    // Whether computing e in loop `l` reads memory along the reduced dim rl: a load of a buffer
    // from outside the kernel that moves with rl (values kept from an earlier loop are read from
    // the row's array instead).
    bool readsAlongRow(const SE& e, int l, const std::string& rl, int depth = 0) const {
        if (depth > 64) return true;
        if (e->kind == SExpr::Call && view::costlyCall(e->op)) {
            const KeptValue* kv = plan_.keptValue(view::valueKey(e));
            if (kv && kv->loop < l) return false;
        }
        if (e->kind == SExpr::Load) {
            const Node& m = p_.nodes[e->buffer];
            for (auto& v : indexValues(*e))
                if (readsAlongRow(v, l, rl, depth)) return true;
            if (!members_.count(m.id)) return view::unitStride(p_, g_.domain, view::offsetExpr(p_, m.id, e->index), rl);
            if (m.kind == NodeKind::Reduction) return false; // the row's value
            return readsAlongRow(view::loadedBody(p_, e), l, rl, depth + 1);
        }
        for (auto& a : e->args)
            if (readsAlongRow(a, l, rl, depth)) return true;
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
            for (const SExpr* ld : loads)
                if (ld->buffer == n) return true;
        }
        return false;
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
    // cached 0.84-0.86 ms streamed, 1.11-1.23 ms not). Those figures predate opaque row values (a
    // divide per element in rmsnorm's loop then); only outputs too large for the last-level cache
    // are streamed now (Target::streamBytes).
    std::vector<int> streamedRows(const ReductionLoop& l, const std::string& rl) const {
        const Domain& d = g_.domain;
        std::vector<int> streamed;
        bool memoryBound = true, readsMemory = false;
        for (int n : l.stores) {
            SE body = view::placedBody(p_.nodes[n], d);
            memoryBound = memoryBound && !computesCostly(body, l.index);
            readsMemory = readsMemory || readsAlongRow(body, l.index, rl);
        }
        const int64_t rowLen = plan_.rowLength;
        if (!memoryBound || !readsMemory || !l.reductions.empty() || rowLen < 0 || rowLen % 16 != 0 || rowLen > view::kRowStash) return streamed;
        for (int n : l.stores) {
            const Node& nd = p_.nodes[n];
            int64_t elems = 1, v = 0;
            bool fixed = true;
            for (auto& dim : nd.shape) fixed = fixed && constValue(dim, v), elems *= v;
            IE off = view::offsetExpr(p_, n, view::outCoords(nd, d));
            if (!readLater(n) && fixed && nd.dtype == DType::F32 && elems * 4 >= t_.streamBytes && view::unitStride(p_, d, off, rl)) streamed.push_back(n);
        }
        return streamed;
    }

    // ------------------------------------------------------------------ pointwise kernels
    // Rows of the last dim, cut into blocks of kBlock elements when longer. A blocked loop that
    // calls costly math is bound by it, and the hardware prefetchers do not run far enough ahead
    // of it: it goes in blocks of kLanes, each fetching the inputs one row block (kBlock elements)
    // ahead. pointwise_chain's kernel alone, one thread, streaming 16 MiB, 6 A/B pairs: 5.35-5.63
    // -> 4.92-5.29 ms (first quartiles; a second set of 6 was within the noise); two threads, 8
    // pairs: faster in 5 by the minimum and in 6 by the median.
    void planPointwise() {
        Shape outer = g_.domain.outer;
        if (outer.empty()) outer.push_back(iconst(1));
        const size_t last = outer.size() - 1;
        int64_t lastConst = 0;
        plan_.blocked = !(constValue(outer[last], lastConst) && lastConst <= view::kBlock);
        plan_.blocks = plan_.blocked ? idiv(iadd(outer[last], iconst(view::kBlock - 1)), iconst(view::kBlock)) : iconst(1);
        plan_.rows = imul(product(outer, 0, last), plan_.blocks);
        plan_.costPerRow = plan_.blocked ? view::kBlock : std::max<int64_t>(1, lastConst);
        const std::string xl = "x" + std::to_string(last);

        recording_ = plan_.blocked;
        std::vector<std::pair<int, SE>> outs;
        for (int n : g_.nodes) {
            if (!s_.stored[n]) continue;
            outs.emplace_back(n, view::placedBody(p_.nodes[n], g_.domain));
            walk(outs.back().second, Where::Loop);
            recordStore(n);
        }
        recording_ = false;
        const std::set<Op> calls = costly_;
        if (plan_.blocked && !calls.empty()) blockPrefetches(xl);
        if (!plan_.prefetches.empty())
            choose(ChoiceKind::PrefetchAhead, "the next row block",
                   "a blocked loop bound by math (" + firstCostly(calls) + "): the hardware prefetchers do not run far enough ahead of it");
        // a row of at least two blocks is worth the two stages (one block has nothing to overlap)
        const bool stages = plan_.blocked ? !plan_.prefetches.empty() : lastConst >= 2 * kLanes && !calls.empty();
        if (stages) plan_.twoStageCut = pipelineCut(outs);
        if (plan_.twoStageCut) planTwoStages(outs);
        else plan_.interleave = interleave(calls, "the element loop");
    }

    // Prefetches, for the block of kLanes elements at b0 of a pointwise loop over xl, of the
    // unit-stride reads and writes kBlock elements further on (the next row block: past the row's
    // end the address is another row's or none, and a prefetch is only a hint). The writes are
    // fetched for writing (prefetchw): a store to a line not in the cache first reads it, and
    // those reads otherwise start only when the stores reach them. pointwise_chain's kernel alone,
    // two threads, 2^22 floats, 4 A/B pairs: 2.65-3.15 -> 2.50-3.00 ms (medians), faster in all 4.
    void blockPrefetches(const std::string& xl) {
        auto ahead = [&](const Accesses& accesses, bool write) {
            for (auto& [key, access] : accesses) {
                if (!view::unitStride(p_, g_.domain, access.second, xl)) continue;
                IE at = substitute(access.second, {{xl, iadd(iadd(ivar("b0"), iconst(view::kBlock)), ivar("c"))}});
                plan_.prefetches.push_back({access.first, at, view::perLine(p_.nodes[access.first].dtype), write});
            }
        };
        ahead(loads_, false);
        if (!plan_.prefetches.empty()) ahead(stores_, true);
    }

    // Two stages a block of kLanes apart (see pipelineCut): the loops that compute the first stage
    // alone, and the second alone, each interleaved when it calls costly math.
    void planTwoStages(const std::vector<std::pair<int, SE>>& outs) {
        const SE& cut = plan_.twoStageCut;
        const Node& cn = p_.nodes[cut->buffer];
        choose(ChoiceKind::TwoStage, cn.name + " (" + cn.what + ")",
               "chained costly math: it is computed a block ahead, beside the rest of the block before, so two independent chains keep the vector units busy");
        costly_.clear();
        walk(cut, Where::Loop);
        plan_.firstStageInterleave = interleave(costly_, "the first block's first stage");
        costly_.clear();
        skip_ = view::valueKey(cut);
        for (auto& [n, e] : outs) walk(e, Where::Loop);
        skip_.clear();
        plan_.secondStageInterleave = interleave(costly_, "the last block's second stage");
    }

    // Calls f on e and its sub-expressions, the bodies of inlined loads of the kernel's own
    // pointwise nodes included, but not below loads of node `leaf`. False when the walk gave up
    // (more than `budget` visits: inlined bodies shared many times over).
    bool visit(const SE& e, int leaf, const std::function<void(const SE&)>& f, int& budget, int depth = 0) const {
        if (depth > 64 || --budget < 0) return false;
        f(e);
        if (e->kind == SExpr::Load) {
            for (auto& v : indexValues(*e))
                if (!visit(v, leaf, f, budget, depth)) return false;
            if (e->buffer == leaf || !members_.count(e->buffer) || p_.nodes[e->buffer].kind == NodeKind::Reduction) return true;
            return visit(view::loadedBody(p_, e), leaf, f, budget, depth + 1);
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
                    at[m.id].insert(view::valueKey(e));
                    load[m.id] = e;
                }, budget))
                return nullptr;
        for (auto n = g_.nodes.rbegin(); n != g_.nodes.rend(); ++n) {
            if (!at.count(*n) || at[*n].size() != 1) continue;
            std::set<std::string> first, second;
            bool feeds = false, whole = true; // whole: no walk gave up
            auto costly = [](const SE& e) { return e->kind == SExpr::Call && view::costlyCall(e->op); };
            whole = visit(view::loadedBody(p_, load[*n]), -1, [&](const SE& e) { if (costly(e)) first.insert(view::valueKey(e)); }, budget);
            for (auto& [stored, o] : outs)
                if (whole && !visit(o, *n, [&](const SE& e) {
                        if (!costly(e)) return;
                        second.insert(view::valueKey(e));
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
};

} // namespace

// Outputs at least this large are written past the caches: those that do not fit in the
// last-level cache beside an input of their size, and would go to memory anyway. One that fits
// stays there for its reader; on the 480 MiB L3 host of 2026-12-06, rmsnorm's 16 MiB output took
// 0.950-0.999 ms streamed against 0.831-0.937 ms with ordinary stores (fuselab bench, 10 pairs).
Target hostTarget() {
    Target t;
    t.streamBytes = std::max(kStreamBytes, lastLevelCacheBytes() / 2);
    return t;
}

KernelPlan plan(const Program& p, const fuse::Schedule& s, const Group& g, const Target& t) { return Planner(p, s, g, t).run(); }

std::vector<KernelPlan> planKernels(const Program& p, const fuse::Schedule& s, const std::vector<int>& order, const Target& t) {
    std::vector<KernelPlan> out;
    for (int unit : order)
        if (unit >= 0) out.push_back(plan(p, s, s.groups[unit], t));
    return out;
}

} // namespace fl::codegen
