// The tracer: the interpreter's hooks while a compiled frame is being captured. Ops run for real
// (so the first call computes its own result) and are recorded; reads of Python values from the
// frame's inputs install guards; completed sub-expressions of the current statement are kept so
// that, after a graph break, the statement can finish eagerly without recomputing them.
#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/capture/capture.h"

namespace fl::capture {

// The interpreter's trace hooks (core/script/hooks.h: the traced frame's position is kept there
// by the interpreter) for one entry being captured.
class Tracer final : public script::TraceHooks {
public:
    Tracer(Session& s, CFrame& fr, Entry& e, script::Scope* root, script::Scope* userGlobals, int rootDepth);

    Session& s;
    Interp& in;
    CFrame& fr;
    Entry& e;

    // ---- root statement tracking (the position itself is in TraceHooks)
    const script::Stmt* stmt = nullptr;
    std::vector<std::pair<const script::Expr*, Value>> done; // completed sub-expressions of `stmt`
    // restart after a break inside an inlined call: stop before this root-level call
    const script::CallExpr* stopCall = nullptr;
    std::vector<int> stopPath;
    int stopOcc = 0;

    bool atRoot() const override;
    void beginStmt(const script::Stmt* st) override;
    void exprDone(const script::Expr* e, const Value& v) override;
    void beforeRootCall(const script::CallExpr* c) override; // throws at the restart stop point

    // ---- guards from reads
    std::set<std::string> inputs, reassigned;
    void onLocalRead(const std::string& name, const Value& v) override;
    void onStore(const std::string& name) override {
        reassigned.insert(name);
        symLocals.erase(name);
    }
    void onGlobalRead(const std::string& name, const Value& v) override;
    void onClosureRead(const std::string& name, const Value& v) override;
    void onAttr(const Value& base, const std::string& name, const Value& result) override;
    void onItem(const Value& base, const Value& key, const Value& result) override;
    void onSeqUse(const Value& seq) override;
    // Mutating an object that existed before the trace (an input, a global, a module): cached
    // calls would not repeat it, so the statement breaks the graph and runs eagerly.
    void onMutate(const Value& obj) override;
    void onGlobalStore(const std::string& name) override;

    // ---- symbolic scalars: an int/float input whose value changed since the first compile is a
    // graph input (Sym) where it meets tensor ops or arithmetic; anywhere else it specialises.
    std::set<std::string> dynamicScalars;
    bool isSymName(const std::string& name) const override;
    ArgT scalarArg(const std::string& name, const Value& v);
    ArgT symBinaryArg(script::BinOpKind op, const Value& l, const ArgT& lt, const Value& r, const ArgT& rt, Value& out);
    void specializeName(const std::string& name) override;
    // the interpreter's side of these: graph arguments by number (symArgs)
    std::vector<ArgT> symArgs;
    script::SymRef keepSym(ArgT a) {
        symArgs.push_back(std::move(a));
        return {int(symArgs.size()) - 1};
    }
    const ArgT& symArg(script::SymRef r) const { return symArgs.at(size_t(r.id)); }
    script::SymRef scalarPlaceholder(const std::string& name, const Value& v) override { return keepSym(scalarArg(name, v)); }
    script::SymRef symBinary(script::BinOpKind op, const Value& l, script::SymRef lt, const Value& r, script::SymRef rt, Value& out) override {
        return keepSym(symBinaryArg(op, l, symArg(lt), r, symArg(rt), out));
    }
    script::SymRef symOf(const Value& v) override { return keepSym(argOf(v)); }
    // symbolic sizes: a size read from a tensor with dynamic dims is a graph node; assigned
    // straight to locals (`B, T, C = x.size()`, `n = x.shape[0]`) it stays symbolic, any other
    // use specialises the entry's sizes.
    std::unordered_map<const script::Obj*, std::pair<int, std::vector<uint8_t>>> symSizeTuples;
    std::map<std::string, ArgT> symLocals;
    const script::Expr* symExpr = nullptr; // the expression that produced an unclaimed symbolic size
    ArgT symExprRef;
    bool pendingSpecialize = false;
    void settleSymRead() { if (pendingSpecialize) { pendingSpecialize = false; specializeAll = true; } }
    // size tuples with dynamic dims not yet claimed by `B, T = x.shape` or `x.shape[i]`: any other
    // use (`torch.zeros(x.shape)`, `*x.shape`, `s = x.shape`) reads the sizes as plain ints, so at
    // the next statement boundary the entry's sizes are specialised
    std::vector<const script::Obj*> unclaimedSizes;
    void claimSizes(const script::Obj* o) {
        unclaimedSizes.erase(std::remove(unclaimedSizes.begin(), unclaimedSizes.end(), o), unclaimedSizes.end());
    }
    void settleSizes() {
        settleSymRead();
        if (!unclaimedSizes.empty()) specializeAll = true;
        unclaimedSizes.clear();
    }
    void afterAssign(const script::Expr* target, const script::Expr* value, const Value& v) override;
    Value sizeOp(script::CallArgs& ca, const OpInvoke& run);
    // ---- ops (symbolic arguments of the call about to run: TraceHooks::pendingPos, consumed here)
    Value op(const std::string& target, script::CallArgs& ca, const OpInvoke& run) override;
    [[noreturn]] void breakNow(const std::string& kindId, const std::string& detail);
    void maybeBreak(const std::string& kindId, const std::string& detail) override {
        if (!suspended) breakNow(kindId, detail);
    }
    void metadataRead(const Value& tensor) override; // a size/stride read: dynamic dims specialise
    bool splitDimIsDynamic(const std::string& target, const script::CallArgs& ca);
    bool hasDynamicDims() const; // any input dim of the entry is dynamic
    // Per dim of a node's result (`item`: of a tuple result, or -1): whether it depends on the
    // entry's dynamic sizes. A symbolic dim does; so does one derived from them that the recorded
    // meta holds as a number (x.reshape(-1, 2) of an [s0, 3, 2] input is [72, 2] at trace time).
    // Found by running the graph so far on meta tensors with the dynamic sizes moved three ways
    // (doubled, one more, and down to 2: min(s0, 5) moves only with some); where that cannot
    // run, every dim larger than 1 is taken to depend.
    std::vector<uint8_t> sizeDependence(int node, int item);
    std::map<int, Value> placeholderValues; // traced values of the graph's placeholders
    static constexpr int kShadows = 3;
    std::vector<Value> shadowEnv[kShadows]; // the meta runs, node by node
    size_t shadowDone = 0;
    bool shadowFailed = false;

    // ---- building
    ArgT argOf(const Value& v);
    ArgT templateOf(const Value& v); // for exit templates (sources allowed for objects)
    int placeholderFor(const Value& tensor);
    void finishGraph(const std::vector<ArgT*>& exits);
    GraphBreakSignal makeSignal(const std::string& kindId, const std::string& detail);
    std::vector<std::string> userStack(bool withSource) const;
    void addGuard(Guard g);
    std::string userComment() const; // "# return x * c  # m.py:5 in f"

    std::unordered_map<const script::Obj*, std::pair<int, int>> tensorRef; // TensorObj -> (node, tuple index)
    // graph inputs by their source's text (tensors; symbolic scalars): found again without a scan
    // of the nodes, which made long traces quadratic
    std::unordered_map<std::string, int> tensorInputs, scalarInputs;
    std::unordered_map<const script::Obj*, Source> sources;
    std::unordered_set<const script::Obj*> typeGuarded; // objects whose class is guarded (InstanceType)
    void guardClass(const script::Value& obj); // an InstanceType guard on obj's class, once, if obj has a source
    std::set<std::string> guarded;
    std::unordered_set<const script::Obj*> seqGuarded; // input containers whose items are all guarded already
    std::vector<Value> keep; // keeps traced objects alive so their addresses stay unique
    std::vector<std::pair<Value, Value>> undo; // (input tensor, its contents before an in-place op)
    std::unordered_set<const script::Obj*> undone; // the tensors in `undo`
    std::map<int64_t, std::string> symbols; // concrete size of a dynamic dim -> "s0"
    bool specializeAll = false;
    int suspended = 0;
};

} // namespace fl::capture
