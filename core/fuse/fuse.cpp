#include "core/fuse/fuse.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <queue>
#include <set>
#include <unordered_set>

#include "core/graph/ops.h"

namespace fl::fuse {

using lower::Node;
using lower::NodeKind;
using lower::Program;
using lower::SE;
using lower::SExpr;
using namespace lower;

namespace {

// Non-1 dims of a shape with their positions.
std::vector<std::pair<size_t, IE>> nonOnes(const Shape& s) {
    std::vector<std::pair<size_t, IE>> r;
    for (size_t i = 0; i < s.size(); ++i)
        if (!isConst(s[i], 1)) r.emplace_back(i, s[i]);
    return r;
}

// Maps dims `from` (variables prefix+i) onto dims `to` (variables names[j]) when their non-1
// dims agree in order; 1-dims read index 0.
bool mapDims(const Shape& from, const std::string& prefix, const Shape& to, const std::vector<std::string>& names,
             std::map<std::string, IE>& vars) {
    auto a = nonOnes(from), b = nonOnes(to);
    if (a.size() != b.size()) return false;
    for (size_t k = 0; k < a.size(); ++k)
        if (!sameExpr(a[k].second, b[k].second)) return false;
    for (size_t i = 0; i < from.size(); ++i) vars[prefix + std::to_string(i)] = iconst(0);
    for (size_t k = 0; k < a.size(); ++k) vars[prefix + std::to_string(a[k].first)] = ivar(names[b[k].first]);
    return true;
}

std::vector<std::string> names(const char* prefix, size_t n) {
    std::vector<std::string> r;
    for (size_t i = 0; i < n; ++i) r.push_back(prefix + std::to_string(i));
    return r;
}

Domain initialDomain(const Node& n) {
    if (n.kind == NodeKind::Reduction) return Domain{n.kept, n.reduced};
    return Domain{n.shape, {}};
}

std::string dimsText(const Shape& s) { return shapeStr(s); }

} // namespace

Placement place(const Node& n, const Domain& d) {
    Placement p;
    auto outerNames = names("x", d.outer.size()), innerNames = names("r", d.inner.size());
    if (n.kind == NodeKind::Reduction) {
        p.ok = mapDims(n.kept, "x", d.outer, outerNames, p.vars) && mapDims(n.reduced, "r", d.inner, innerNames, p.vars);
        return p;
    }
    if (n.kind != NodeKind::Pointwise) return p;
    Shape all = d.outer;
    all.insert(all.end(), d.inner.begin(), d.inner.end());
    auto allNames = outerNames;
    allNames.insert(allNames.end(), innerNames.begin(), innerNames.end());
    if (mapDims(n.shape, "x", all, allNames, p.vars)) { p.ok = true; return p; }
    p.vars.clear();
    if (d.isReduction() && mapDims(n.shape, "x", d.outer, outerNames, p.vars)) { p.ok = p.rowLevel = true; return p; }
    p.vars.clear();
    return p;
}

namespace {

class Scheduler {
public:
    Scheduler(const Program& p, const std::vector<std::vector<int>>& deps, const std::vector<bool>& needsValue, const Options& o)
        : p_(p), deps_(deps), needs_(needsValue), opts_(o) {
        users_.resize(p.nodes.size());
        for (size_t i = 0; i < deps.size(); ++i)
            for (int d : deps[i]) {
                users_[d].push_back(int(i));
                if (d >= int(i)) topological_ = false;
            }
    }

    Schedule run() {
        s_.groupOf.assign(p_.nodes.size(), -1);
        for (auto& n : p_.nodes) {
            if (n.kind != NodeKind::Pointwise && n.kind != NodeKind::Reduction) continue;
            Group g;
            g.id = int(s_.groups.size());
            g.nodes = {n.id};
            g.domain = initialDomain(n);
            s_.groupOf[n.id] = g.id;
            s_.initial.push_back(g.nodes);
            s_.groups.push_back(g);
        }
        if (opts_.enabled) {
            for (int round = 0; round < 10; ++round)
                if (!fuseRound()) break;
            epilogues();
        }
        s_.stored.assign(p_.nodes.size(), false);
        for (auto& n : p_.nodes) {
            if (n.kind != NodeKind::Pointwise && n.kind != NodeKind::Reduction) continue;
            bool st = needs_[n.id];
            for (int u : users_[n.id])
                if (s_.groupOf[u] != s_.groupOf[n.id]) st = true;
            s_.stored[n.id] = st;
        }
        return std::move(s_);
    }

private:
    const Program& p_;
    const std::vector<std::vector<int>>& deps_;
    const std::vector<bool>& needs_;
    Options opts_;
    std::vector<std::vector<int>> users_;
    bool topological_ = true; // every node depends only on nodes before it (lowering's order)
    Schedule s_;
    std::set<std::pair<std::vector<int>, std::vector<int>>> rejected_;

    int64_t numel(const Shape& s) const {
        int64_t n = 1;
        for (auto& d : s) n *= std::max<int64_t>(1, evaluate(d, opts_.symbolHints));
        return n;
    }
    int64_t bytes(int node) const { return numel(p_.nodes[node].shape) * (p_.nodes[node].dtype == DType::F32 ? 4 : p_.nodes[node].dtype == DType::Bool ? 1 : 8); }

    struct Candidate { int a, b; std::string kind; int64_t saved; double score; int distance; };

    // Memory traffic fusing a and b saves: intermediates no longer written and read back, and
    // shared inputs read once.
    int64_t savedBytes(const Group& a, const Group& b, const std::string& kind) const {
        std::set<int> both(a.nodes.begin(), a.nodes.end());
        both.insert(b.nodes.begin(), b.nodes.end());
        int64_t saved = 0;
        if (kind == "vertical") {
            for (int n : a.nodes) {
                bool readByB = false, readOutside = needs_[n];
                for (int u : users_[n]) {
                    if (std::count(b.nodes.begin(), b.nodes.end(), u)) readByB = true;
                    else if (!both.count(u)) readOutside = true;
                }
                if (readByB) saved += readOutside ? bytes(n) : 2 * bytes(n);
            }
        } else {
            std::set<int> ra, rb;
            for (int n : a.nodes) for (int d : deps_[n]) if (!both.count(d)) ra.insert(d);
            for (int n : b.nodes) for (int d : deps_[n]) if (!both.count(d)) rb.insert(d);
            for (int d : ra)
                if (rb.count(d)) saved += bytes(d);
        }
        return saved;
    }

    // Is there a path from the merged group's nodes back into it through nodes outside it? In
    // topological order such a path never passes a node after the group's last one, so the walk
    // stays between its first and last nodes (walking everything downstream made each check
    // linear in the graph, and fusing a 20k-op chain quadratic).
    bool pathThroughOthers(const std::set<int>& both) const {
        const int last = topological_ ? *both.rbegin() : INT32_MAX;
        std::vector<int> stack;
        std::unordered_set<int> seen;
        for (int n : both)
            for (int u : users_[n])
                if (u < last && !both.count(u) && seen.insert(u).second) stack.push_back(u);
        while (!stack.empty()) {
            int x = stack.back();
            stack.pop_back();
            for (int u : users_[x]) {
                if (both.count(u)) return true;
                if (u < last && seen.insert(u).second) stack.push_back(u);
            }
        }
        return false;
    }

    // Checks the loads of an expression (in the kernel's variables) against the merged group:
    // a reduction in the group may only be read at the row being computed.
    bool readsOk(const SE& e, const std::set<int>& members, const Domain& d, std::string& why, int depth = 0) const {
        if (depth > 64) { why = "the chain of inlined values is too deep"; return false; }
        if (e->kind == SExpr::Load && members.count(e->buffer)) {
            const Node& m = p_.nodes[e->buffer];
            if (m.kind == NodeKind::Reduction) {
                Placement pm = place(m, d);
                if (!pm.ok) return false;
                std::vector<IE> expect(m.shape.size(), iconst(0));
                for (size_t k = 0; k < m.keptPos.size(); ++k) expect[m.keptPos[k]] = pm.vars.at("x" + std::to_string(k));
                for (size_t i = 0; i < expect.size(); ++i)
                    if (!sameExpr(expect[i], e->index[i])) {
                        why = "not fused: " + m.name + " (" + m.what + ") is a reduction read at another row than the one being computed";
                        return false;
                    }
            } else {
                std::map<std::string, IE> sub;
                for (size_t i = 0; i < e->index.size(); ++i) sub["x" + std::to_string(i)] = e->index[i];
                if (!readsOk(ssubstitute(m.body, sub), members, d, why, depth + 1)) return false;
            }
        }
        if (e->kind == SExpr::Load)
            for (auto& v : indexValues(*e))
                if (!readsOk(v, members, d, why, depth)) return false;
        for (auto& a : e->args)
            if (!readsOk(a, members, d, why, depth)) return false;
        return true;
    }

    // Nodes of a merged group that need a place in its loops: reductions, and values stored
    // because something outside the group reads them. The others are computed where they are read.
    bool anchored(int n, const std::set<int>& both) const {
        if (p_.nodes[n].kind == NodeKind::Reduction || needs_[n]) return true;
        for (int u : users_[n])
            if (!both.count(u)) return true;
        return false;
    }

    // The domain a merged group would have, or why there is none.
    bool mergedDomain(const Group& a, const Group& b, Domain& out, std::string& why) const {
        std::vector<Domain> options;
        if (a.domain.isReduction()) options.push_back(a.domain);
        if (b.domain.isReduction()) options.push_back(b.domain);
        if (options.empty()) options = {b.domain, a.domain};
        std::set<int> both(a.nodes.begin(), a.nodes.end());
        both.insert(b.nodes.begin(), b.nodes.end());
        for (auto& d : options) {
            bool fits = true;
            for (int n : both)
                if (anchored(n, both) && !place(p_.nodes[n], d).ok) fits = false;
            if (fits) { out = d; return true; }
        }
        const Node& na = p_.nodes[a.nodes.back()];
        const Node& nb = p_.nodes[b.nodes.back()];
        auto describe = [](const Group& g, const Node& n) {
            if (g.domain.isReduction()) return "the reduction over " + dimsText(g.domain.inner) + " with rows " + dimsText(g.domain.outer);
            return std::string(n.kind == NodeKind::Pointwise ? "a pointwise loop" : "a loop") + " over " + dimsText(g.domain.outer);
        };
        why = "not fused: " + describe(a, na) + " and " + describe(b, nb) + " have different loop ranges";
        return false;
    }

    bool legal(const Group& a, const Group& b, Domain& d, std::string& why) const {
        if (int(a.nodes.size() + b.nodes.size()) > opts_.maxNodes) {
            why = "not fused: the kernel would have more than " + std::to_string(opts_.maxNodes) + " nodes";
            return false;
        }
        if (a.domain.isReduction() && b.domain.isReduction() &&
            !(sameShape(a.domain.outer, b.domain.outer) && sameShape(a.domain.inner, b.domain.inner))) {
            why = "not fused: reductions over " + dimsText(a.domain.inner) + " and " + dimsText(b.domain.inner) + " loop over different ranges";
            return false;
        }
        if (!mergedDomain(a, b, d, why)) return false;
        std::set<int> both(a.nodes.begin(), a.nodes.end());
        both.insert(b.nodes.begin(), b.nodes.end());
        if (pathThroughOthers(both)) {
            why = "not fused: another kernel or library call sits between them (fusing would make a cycle)";
            return false;
        }
        for (int n : both) {
            if (!anchored(n, both)) continue; // checked where it is inlined
            const Node& nd = p_.nodes[n];
            Placement pl = place(nd, d);
            if (!readsOk(ssubstitute(nd.body, pl.vars), both, d, why)) {
                if (why.empty()) why = "not fused: " + nd.name + " reads a value of the other group at a shape it cannot index";
                return false;
            }
        }
        return true;
    }

    std::string groupName(const Group& g) const {
        std::string r;
        for (int n : g.nodes) r += (r.empty() ? "" : "+") + p_.nodes[n].what;
        return r;
    }

    bool fuseRound() {
        std::vector<Candidate> cands;
        std::set<std::pair<int, int>> seen;
        for (auto& g : s_.groups) {
            if (!g.alive) continue;
            for (int n : g.nodes)
                for (int u : users_[n]) {
                    int gb = s_.groupOf[u];
                    if (gb < 0 || gb == g.id || !seen.insert({g.id, gb}).second) continue;
                    cands.push_back({g.id, gb, "vertical", 0, 0, 0});
                }
        }
        // siblings: groups reading the same buffer
        std::map<int, std::vector<int>> readers;
        for (auto& g : s_.groups) {
            if (!g.alive) continue;
            std::set<int> rd;
            for (int n : g.nodes) for (int d : deps_[n]) if (s_.groupOf[d] != g.id) rd.insert(d);
            for (int d : rd) readers[d].push_back(g.id);
        }
        for (auto& [buf, gs] : readers)
            for (size_t i = 0; i < gs.size(); ++i)
                for (size_t j = i + 1; j < gs.size(); ++j) {
                    int a = std::min(gs[i], gs[j]), b = std::max(gs[i], gs[j]);
                    if (seen.count({a, b}) || seen.count({b, a})) continue;
                    seen.insert({a, b});
                    cands.push_back({a, b, "horizontal", 0, 0, 0});
                }
        for (auto& c : cands) {
            const Group& a = s_.groups[c.a];
            const Group& b = s_.groups[c.b];
            c.saved = savedBytes(a, b, c.kind);
            c.distance = std::abs(b.nodes.front() - a.nodes.back());
            bool sameKind = a.domain.isReduction() == b.domain.isReduction();
            c.score = double(c.saved) + (sameKind ? 1000.0 : 0.0) - c.distance;
        }
        std::stable_sort(cands.begin(), cands.end(), [](const Candidate& x, const Candidate& y) {
            if (x.score != y.score) return x.score > y.score;
            return std::make_pair(x.a, x.b) < std::make_pair(y.a, y.b);
        });
        bool any = false;
        for (auto& c : cands) {
            Group& a = s_.groups[c.a];
            Group& b = s_.groups[c.b];
            if (!a.alive || !b.alive) continue;
            if (c.kind == "horizontal" && c.saved == 0) continue;
            if (rejected_.count({a.nodes, b.nodes})) continue;
            Decision d;
            d.step = int(s_.decisions.size());
            d.kind = c.kind;
            d.a = a.nodes;
            d.b = b.nodes;
            d.score = c.score;
            d.bytesSaved = c.saved;
            Domain dom;
            std::string why;
            if (!legal(a, b, dom, why)) {
                d.reason = why;
                rejected_.insert({a.nodes, b.nodes});
                s_.decisions.push_back(d);
                continue;
            }
            d.fused = true;
            if (c.kind == "vertical") {
                bool intoReduction = b.domain.isReduction() && !a.domain.isReduction();
                bool afterReduction = a.domain.isReduction() && !b.domain.isReduction();
                if (intoReduction) d.reason = "fused: " + groupName(a) + " is computed inside the loop of the reduction " + groupName(b) + " (prologue)";
                else if (afterReduction) d.reason = "fused: " + groupName(b) + " runs on the rows " + groupName(a) + " has just reduced (epilogue)";
                else d.reason = "fused: " + groupName(b) + " computes " + groupName(a) + " where it reads it, over the same loops " + dimsText(dom.outer);
            } else {
                d.reason = "fused: " + groupName(a) + " and " + groupName(b) + " read the same input over the same loops " + dimsText(dom.outer);
            }
            if (c.saved) d.reason += "; saves about " + std::to_string(c.saved / 1024) + " KiB of memory traffic";
            s_.decisions.push_back(d);
            merge(a, b, dom);
            any = true;
        }
        return any;
    }

    void merge(Group& a, Group& b, const Domain& d) {
        Group g;
        g.id = int(s_.groups.size());
        g.nodes = a.nodes;
        g.nodes.insert(g.nodes.end(), b.nodes.begin(), b.nodes.end());
        std::sort(g.nodes.begin(), g.nodes.end());
        g.domain = d;
        a.alive = b.alive = false;
        for (int n : g.nodes) s_.groupOf[n] = g.id;
        s_.groups.push_back(g);
    }

    // A pointwise kernel reading only whole rows of an mm's output runs right after each block of
    // rows the library computes.
    void epilogues() {
        for (auto& g : s_.groups) {
            if (!g.alive || g.domain.isReduction()) continue;
            std::set<int> externs;
            for (int n : g.nodes)
                for (int d : deps_[n])
                    if (p_.nodes[d].kind == NodeKind::Extern) externs.insert(d);
            if (externs.size() != 1) continue;
            int e = *externs.begin();
            const Node& en = p_.nodes[e];
            Decision d;
            d.step = int(s_.decisions.size());
            d.kind = "epilogue";
            d.a = {e};
            d.b = g.nodes;
            d.bytesSaved = bytes(e);
            d.score = double(d.bytesSaved);
            std::string why;
            if (en.callee != "linear" && en.callee != "matmul") why = "not fused: " + en.what + " is not a matrix product";
            else if (!sameShape(en.shape, g.domain.outer)) why = "not fused: the kernel loops over " + dimsText(g.domain.outer) + ", not over " + en.what + "'s rows " + dimsText(en.shape);
            else if (graph::opNamed(en.callee) == graph::Op::Matmul && en.shape.size() != 2) why = "not fused: a batched matmul's rows are not computed in blocks";
            for (int n : g.nodes)
                for (int dep : deps_[n]) {
                    if (!why.empty()) break;
                    // the graph's inputs exist before any node runs, whatever their number
                    if (dep > e && s_.groupOf[dep] != g.id && p_.nodes[dep].kind != NodeKind::Input)
                        why = "not fused: the kernel also reads " + p_.nodes[dep].name + ", computed after " + en.what;
                }
            if (why.empty()) {
                // every read of the extern's output must be at the row being computed
                std::set<int> members(g.nodes.begin(), g.nodes.end());
                std::function<bool(const SE&, int)> rowsOnly = [&](const SE& x, int depth) {
                    if (depth > 64) return false;
                    if (x->kind == SExpr::Load && x->buffer == e) {
                        for (size_t i = 0; i + 1 < x->index.size(); ++i)
                            if (!sameExpr(x->index[i], ivar("x" + std::to_string(i)))) return false;
                    }
                    if (x->kind == SExpr::Load && members.count(x->buffer)) { // computed where it is read
                        std::map<std::string, IE> sub;
                        for (size_t i = 0; i < x->index.size(); ++i) sub["x" + std::to_string(i)] = x->index[i];
                        if (!rowsOnly(ssubstitute(p_.nodes[x->buffer].body, sub), depth + 1)) return false;
                    }
                    if (x->kind == SExpr::Load)
                        for (auto& v : indexValues(*x))
                            if (!rowsOnly(v, depth)) return false;
                    for (auto& a : x->args)
                        if (!rowsOnly(a, depth)) return false;
                    return true;
                };
                for (int n : g.nodes)
                    if (anchored(n, members) && !rowsOnly(ssubstitute(p_.nodes[n].body, place(p_.nodes[n], g.domain).vars), 0))
                        why = "not fused: " + p_.nodes[n].what + " reads " + en.what + "'s output across rows";
            }
            if (why.empty()) {
                d.fused = true;
                d.reason = "fused: " + groupName(g) + " runs on each block of rows of " + en.what + " right after the library computes it, while it is in cache";
                g.epilogueOf = e;
            } else {
                d.reason = why;
            }
            s_.decisions.push_back(d);
        }
    }
};

} // namespace

Schedule schedule(const Program& p, const std::vector<std::vector<int>>& deps, const std::vector<bool>& needsValue, const Options& opts) {
    Scheduler s(p, deps, needsValue, opts);
    return s.run();
}

std::vector<int> executionOrder(const Program& p, const Schedule& s, const std::vector<std::vector<int>>& deps) {
    // units: live groups and extern/fallback nodes; Kahn's algorithm, smallest first node first
    std::map<int, std::vector<int>> unitNodes; // unit -> nodes
    std::vector<int> unitOf(p.nodes.size(), INT32_MIN);
    for (auto& g : s.groups)
        if (g.alive)
            for (int n : g.nodes) { unitOf[n] = g.id; unitNodes[g.id].push_back(n); }
    for (auto& n : p.nodes)
        if (n.kind == NodeKind::Extern || n.kind == NodeKind::Fallback) { unitOf[n.id] = -1 - n.id; unitNodes[-1 - n.id].push_back(n.id); }
    std::map<int, std::set<int>> preds;
    for (auto& [u, ns] : unitNodes) {
        preds[u];
        for (int n : ns)
            for (int d : deps[n])
                if (unitOf[d] != INT32_MIN && unitOf[d] != u) preds[u].insert(unitOf[d]);
    }
    // the ready unit with the smallest first node next, from a heap (a scan of every unit per
    // step was quadratic in the number of kernels and library calls)
    std::map<int, std::vector<int>> succs;
    std::map<int, size_t> waiting;
    for (auto& [u, ps] : preds) {
        waiting[u] = ps.size();
        for (int q : ps) succs[q].push_back(u);
    }
    using Ready = std::pair<int, int>; // (first node, unit)
    std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> ready;
    for (auto& [u, ns] : unitNodes)
        if (waiting[u] == 0) ready.push({ns.front(), u});
    std::vector<int> order;
    while (!ready.empty()) { // a unit never ready would be a cycle: cannot happen when fusion is legal
        int u = ready.top().second;
        ready.pop();
        order.push_back(u);
        for (int v : succs[u])
            if (--waiting[v] == 0) ready.push({unitNodes[v].front(), v});
    }
    return order;
}

} // namespace fl::fuse
