#include "core/script/interp.h"
#include "core/script/api_names.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_set>
#include <utility>

#include "core/script/builtins.h"
#include "core/script/coroutine.h"
#include "core/script/match.h"
#include "core/script/pyformat.h"
#include "core/script/stdlib.h"
#include "core/script/torch_api.h"

namespace fl::script {

// ---------------------------------------------------------------- static facts about function bodies
struct FuncInfo {
    std::unordered_set<std::string> locals, globals, nonlocals;
    mutable std::string qualname; // the function's __qualname__ (lexical, so one per definition)
};

namespace {

void collectTargets(const Expr* e, std::unordered_set<std::string>& out) {
    if (!e) return;
    switch (e->kind) {
    case ExprKind::Name: out.insert(static_cast<const NameExpr*>(e)->id); break;
    case ExprKind::Tuple:
        for (auto& x : static_cast<const TupleExpr*>(e)->elts) collectTargets(x.get(), out);
        break;
    case ExprKind::List:
        for (auto& x : static_cast<const ListExpr*>(e)->elts) collectTargets(x.get(), out);
        break;
    case ExprKind::Starred: collectTargets(static_cast<const StarredExpr*>(e)->value.get(), out); break;
    default: break;
    }
}

void collectWalrus(const Expr* e, std::unordered_set<std::string>& out);

void collectBody(const Body& body, FuncInfo& fi) {
    for (const auto& sp : body) {
        const Stmt* s = sp.get();
        switch (s->kind) {
        case StmtKind::FunctionDef: fi.locals.insert(static_cast<const FunctionDefStmt*>(s)->name); break;
        case StmtKind::ClassDef: fi.locals.insert(static_cast<const ClassDefStmt*>(s)->name); break;
        case StmtKind::Assign: {
            auto* a = static_cast<const AssignStmt*>(s);
            for (auto& t : a->targets) collectTargets(t.get(), fi.locals);
            collectWalrus(a->value.get(), fi.locals);
            break;
        }
        case StmtKind::AugAssign: collectTargets(static_cast<const AugAssignStmt*>(s)->target.get(), fi.locals); break;
        case StmtKind::AnnAssign: {
            auto* a = static_cast<const AnnAssignStmt*>(s);
            if (a->target->kind == ExprKind::Name) fi.locals.insert(static_cast<const NameExpr*>(a->target.get())->id);
            break;
        }
        case StmtKind::For: {
            auto* f = static_cast<const ForStmt*>(s);
            collectTargets(f->target.get(), fi.locals);
            collectBody(f->body, fi);
            collectBody(f->orelse, fi);
            break;
        }
        case StmtKind::While: {
            auto* w = static_cast<const WhileStmt*>(s);
            collectWalrus(w->test.get(), fi.locals);
            collectBody(w->body, fi);
            collectBody(w->orelse, fi);
            break;
        }
        case StmtKind::If: {
            auto* i = static_cast<const IfStmt*>(s);
            collectWalrus(i->test.get(), fi.locals);
            collectBody(i->body, fi);
            collectBody(i->orelse, fi);
            break;
        }
        case StmtKind::With: {
            auto* w = static_cast<const WithStmt*>(s);
            for (auto& it : w->items) collectTargets(it.optionalVars.get(), fi.locals);
            collectBody(w->body, fi);
            break;
        }
        case StmtKind::Try: {
            auto* t = static_cast<const TryStmt*>(s);
            collectBody(t->body, fi);
            for (auto& h : t->handlers) {
                if (!h.name.empty()) fi.locals.insert(h.name);
                collectBody(h.body, fi);
            }
            collectBody(t->orelse, fi);
            collectBody(t->finalbody, fi);
            break;
        }
        case StmtKind::Import:
            for (auto& a : static_cast<const ImportStmt*>(s)->names) {
                if (!a.asname.empty()) fi.locals.insert(a.asname);
                else fi.locals.insert(a.name.substr(0, a.name.find('.')));
            }
            break;
        case StmtKind::ImportFrom:
            for (auto& a : static_cast<const ImportFromStmt*>(s)->names)
                fi.locals.insert(a.asname.empty() ? a.name : a.asname);
            break;
        case StmtKind::Delete:
            for (auto& t : static_cast<const DeleteStmt*>(s)->targets) collectTargets(t.get(), fi.locals);
            break;
        case StmtKind::Global:
            for (auto& n : static_cast<const GlobalStmt*>(s)->names) fi.globals.insert(n);
            break;
        case StmtKind::Nonlocal:
            for (auto& n : static_cast<const NonlocalStmt*>(s)->names) fi.nonlocals.insert(n);
            break;
        case StmtKind::Expr: collectWalrus(static_cast<const ExprStmt*>(s)->value.get(), fi.locals); break;
        case StmtKind::Return: collectWalrus(static_cast<const ReturnStmt*>(s)->value.get(), fi.locals); break;
        case StmtKind::Match: {
            auto* m = static_cast<const MatchStmt*>(s);
            collectWalrus(m->subject.get(), fi.locals);
            for (auto& c : m->cases) {
                std::vector<std::string> names;
                patternNames(*c.pattern, names);
                fi.locals.insert(names.begin(), names.end());
                collectWalrus(c.guard.get(), fi.locals);
                collectBody(c.body, fi);
            }
            break;
        }
        default: break;
        }
    }
}

// Walrus targets bind in the enclosing function even from inside comprehensions.
void collectWalrus(const Expr* e, std::unordered_set<std::string>& out) {
    if (!e) return;
    switch (e->kind) {
    case ExprKind::NamedExpr: {
        auto* n = static_cast<const NamedExprExpr*>(e);
        out.insert(n->target);
        collectWalrus(n->value.get(), out);
        break;
    }
    case ExprKind::BinOp: {
        auto* b = static_cast<const BinOpExpr*>(e);
        collectWalrus(b->left.get(), out);
        collectWalrus(b->right.get(), out);
        break;
    }
    case ExprKind::Compare: {
        auto* c = static_cast<const CompareExpr*>(e);
        collectWalrus(c->left.get(), out);
        for (auto& x : c->comparators) collectWalrus(x.get(), out);
        break;
    }
    case ExprKind::BoolOp:
        for (auto& x : static_cast<const BoolOpExpr*>(e)->values) collectWalrus(x.get(), out);
        break;
    case ExprKind::Call: {
        auto* c = static_cast<const CallExpr*>(e);
        for (auto& x : c->args) collectWalrus(x.get(), out);
        break;
    }
    case ExprKind::ListComp:
    case ExprKind::SetComp:
    case ExprKind::GeneratorExp:
    case ExprKind::DictComp: {
        auto* c = static_cast<const CompExpr*>(e);
        collectWalrus(c->elt.get(), out);
        for (auto& g : c->generators)
            for (auto& i : g.ifs) collectWalrus(i.get(), out);
        break;
    }
    default: break;
    }
}

enum class Flow { Normal, Break, Continue, Return };

// A branch of a statement on a statement path: an if's body (0) or else (1), a match's case k.
const Body* branchOf(const Stmt* st, int branch) {
    if (st->kind == StmtKind::Match) return &static_cast<const MatchStmt*>(st)->cases[size_t(branch)].body;
    auto* ifs = static_cast<const IfStmt*>(st);
    return branch ? &ifs->orelse : &ifs->body;
}

// d.keys() and d.items(): lists with a view name here, set-like in Python.
static bool setLikeView(const Value& v) {
    if (!v.is(OK::List)) return false;
    const char* n = v.as<ListObj>()->viewName;
    return n && (std::string(n) == "dict_keys" || std::string(n) == "dict_items");
}

// CPython's name for an operator in "unsupported operand type(s) for ...".
std::string binOpSymbol(BinOpKind op) { return op == BinOpKind::Pow ? "** or pow()" : binOpText(op); }

std::string stripped(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r\f");
    if (a == std::string::npos) return "";
    size_t b = s.find_last_not_of(" \t\r\f\n");
    return s.substr(a, b - a + 1);
}

} // namespace

// ---------------------------------------------------------------- the evaluator
// ---------------------------------------------------------------- generators
// A generator's body runs on a coroutine of its own (coroutine.h), started by the first next().
// While it is suspended, the interpreter frames it pushed, the exceptions it is handling and its
// module live here; a resume puts them back on top of the resumer's.
struct GenState : std::enable_shared_from_this<GenState> {
    Interp* in = nullptr;         // null once the interpreter is gone: the body is then abandoned
    Value fn;                     // the generator function (null for a generator expression)
    ScopeP scope;                 // its frame's variables
    std::string name;             // for repr and errors
    std::unique_ptr<Coroutine> co;
    bool done = false;            // finished, closed or failed: next() only says StopIteration
    Value transfer;               // the value yielded out, or sent in
    std::optional<PyException> thrown; // raised at the yield point when resumed by throw()/close()
    Value returned;
    std::vector<Frame> frames;    // while suspended
    int depth = 0;
    std::vector<Value> handling;
    std::shared_ptr<Module> module;
    ~GenState(); // after the Evaluator
};

// The object scripts see: an iterator whose next() resumes the body.
struct GeneratorObj : IteratorObj {
    std::shared_ptr<GenState> st;
    ~GeneratorObj() override;
};

struct Interp::Impl {
    std::unordered_map<std::string, Value> builtins;
    std::unordered_map<std::string, Value> modules; // dotted name -> module
    std::unordered_map<std::string, ClassP> classes;
    std::unordered_map<const void*, std::unique_ptr<FuncInfo>> funcInfos;
    std::vector<Value> handling; // exceptions being handled (for bare raise)
    std::vector<std::weak_ptr<Scope>> moduleScopes; // cleared on destruction: functions and their globals form cycles
    std::unordered_set<const Obj*> reprActive; // recursive containers print as [...]
    int depth = 0;
    Value ellipsis;
    std::vector<std::shared_ptr<Module>> importedAsts; // the imported files' trees, alive as long as their code
    std::vector<GenState*> running;                     // generators whose bodies run now, innermost last
    std::unordered_set<GenState*> liveGens;             // every generator state (orphaned at teardown)
    std::vector<std::shared_ptr<GenState>> pendingClose; // dropped while suspended: closed at the next poll
    bool tearingDown = false;
    Interp* outerKeyInterp = nullptr; // the thread's key interpreter before this one (value.h)
    // set by getAttr for the tryGetAttr it calls: an AttributeError a __getattr__ raises then
    // propagates with its own message instead of meaning "no such attribute"
    bool getattrRaises = false;
};

GeneratorObj::~GeneratorObj() {
    // A generator dropped while suspended is closed (its finally blocks and with exits run), but
    // not from inside a destructor: at the next poll of its interpreter.
    if (st && st->in && !st->in->impl_->tearingDown && st->co && st->co->started() && !st->co->finished() && !st->done)
        st->in->impl_->pendingClose.push_back(std::move(st));
}

struct Evaluator {
    Interp& in;
    explicit Evaluator(Interp& i) : in(i) {}

    // ---------------- scopes
    const FuncInfo* infoFor(const void* key, const Body* body, const Arguments* args) {
        auto& m = in.impl_->funcInfos;
        auto it = m.find(key);
        if (it != m.end()) return it->second.get();
        auto fi = std::make_unique<FuncInfo>();
        if (args) {
            for (auto& a : args->args) fi->locals.insert(a.name);
            if (args->vararg) fi->locals.insert(args->vararg->name);
            for (auto& a : args->kwonly) fi->locals.insert(a.name);
            if (args->kwarg) fi->locals.insert(args->kwarg->name);
        }
        if (body) collectBody(*body, *fi);
        for (auto& g : fi->globals) fi->locals.erase(g);
        for (auto& g : fi->nonlocals) fi->locals.erase(g);
        auto* raw = fi.get();
        m.emplace(key, std::move(fi));
        return raw;
    }

    static Scope* globalsOf(Scope* s) { return s->globals ? s->globals.get() : s; }

    Value lookup(Scope* s, const std::string& name) {
        if (s->kind == Scope::FunctionScope && s->info) {
            if (s->info->locals.count(name)) {
                auto it = s->vars.find(name);
                if (it != s->vars.end()) return it->second;
                in.raise(in.unboundLocalError, "cannot access local variable '" + name + "' where it is not associated with a value");
            }
            if (s->info->globals.count(name)) return lookupGlobal(s, name);
        }
        bool first = true;
        for (Scope* sc = s; sc; sc = sc->parent.get()) {
            if (sc->kind == Scope::ClassScope && !first) { first = false; continue; }
            first = false;
            auto it = sc->vars.find(name);
            if (it != sc->vars.end()) {
                if (in.tracer) {
                    if (sc->kind == Scope::ModuleScope && sc == in.tracer->userGlobals) in.tracer->onGlobalRead(name, it->second);
                    else if (sc->kind == Scope::FunctionScope && sc != s && s == in.tracer->rootScope) in.tracer->onClosureRead(name, it->second);
                }
                return it->second;
            }
            if (sc->kind == Scope::ModuleScope) break;
        }
        return lookupGlobal(s, name);
    }

    Value lookupGlobal(Scope* s, const std::string& name) {
        Scope* g = globalsOf(s);
        auto it = g->vars.find(name);
        if (it != g->vars.end()) {
            if (in.tracer && g == in.tracer->userGlobals) in.tracer->onGlobalRead(name, it->second);
            return it->second;
        }
        auto b = in.impl_->builtins.find(name);
        if (b != in.impl_->builtins.end()) return b->second;
        in.raise(in.nameError, "name '" + name + "' is not defined");
    }

    Scope* storeScope(Scope* s, const std::string& name) {
        if (s->kind == Scope::FunctionScope && s->info) {
            if (s->info->globals.count(name)) return globalsOf(s);
            if (s->info->nonlocals.count(name)) {
                for (Scope* sc = s->parent.get(); sc; sc = sc->parent.get()) {
                    if (sc->kind == Scope::FunctionScope && sc->vars.count(name)) return sc;
                    if (sc->kind == Scope::ModuleScope) break;
                }
                in.raise(in.nameError, "no binding for nonlocal '" + name + "' found");
            }
        }
        return s;
    }

    void storeName(Scope* s, const std::string& name, const Value& v) {
        Scope* target = storeScope(s, name);
        if (in.tracer && target == in.tracer->rootScope) in.tracer->onStore(name);
        if (in.tracer && target == in.tracer->userGlobals && s != target) in.tracer->onGlobalStore(name);
        if (target->kind == Scope::ClassScope && !target->vars.count(name)) target->order.push_back(name);
        target->vars[name] = v;
    }

    // ---------------- statements
    Flow execBody(const Body& body, Scope* s, Value& ret) {
        for (const auto& st : body) {
            // a generator dropped by the statement before is closed before the next one starts
            if (!in.impl_->pendingClose.empty() && !in.tracer) closePending();
            Flow f = exec(st.get(), s, ret);
            if (f != Flow::Normal) return f;
        }
        return Flow::Normal;
    }

    void setLine(int line) {
        if (!in.frames().empty()) in.frames().back().line = line;
    }

    Flow exec(const Stmt* st, Scope* s, Value& ret) {
        setLine(st->span.line);
        switch (st->kind) {
        case StmtKind::Expr: eval(static_cast<const ExprStmt*>(st)->value.get(), s); return Flow::Normal;
        case StmtKind::Assign: {
            auto* a = static_cast<const AssignStmt*>(st);
            Value v = eval(a->value.get(), s);
            for (auto& t : a->targets) assign(t.get(), v, s);
            if (in.tracer && s == in.tracer->rootScope)
                for (auto& t : a->targets) in.tracer->afterAssign(t.get(), a->value.get(), v);
            return Flow::Normal;
        }
        case StmtKind::AugAssign: execAugAssign(static_cast<const AugAssignStmt*>(st), s); return Flow::Normal;
        case StmtKind::AnnAssign: {
            auto* a = static_cast<const AnnAssignStmt*>(st);
            if (a->value) assign(a->target.get(), eval(a->value.get(), s), s);
            if ((s->kind == Scope::ClassScope || s->kind == Scope::ModuleScope) && a->target->kind == ExprKind::Name)
                annotate(static_cast<const NameExpr*>(a->target.get())->id, a->annotation.get(), s);
            return Flow::Normal;
        }
        case StmtKind::Return: {
            auto* r = static_cast<const ReturnStmt*>(st);
            ret = r->value ? eval(r->value.get(), s) : Value();
            return Flow::Return;
        }
        case StmtKind::If: {
            auto* i = static_cast<const IfStmt*>(st);
            if (in.truthy(eval(i->test.get(), s))) return execBody(i->body, s, ret);
            return execBody(i->orelse, s, ret);
        }
        case StmtKind::While: {
            auto* w = static_cast<const WhileStmt*>(st);
            while (true) {
                in.poll();
                setLine(st->span.line);
                if (!in.truthy(eval(w->test.get(), s))) return execBody(w->orelse, s, ret);
                Flow f = execBody(w->body, s, ret);
                if (f == Flow::Break) return Flow::Normal;
                if (f == Flow::Return) return f;
            }
        }
        case StmtKind::For: return execFor(static_cast<const ForStmt*>(st), s, ret);
        case StmtKind::Pass: return Flow::Normal;
        case StmtKind::Break: return Flow::Break;
        case StmtKind::Continue: return Flow::Continue;
        case StmtKind::FunctionDef: {
            auto* d = static_cast<const FunctionDefStmt*>(st);
            Value fn = makeFunction(d, nullptr, s);
            for (auto it = d->decorators.rbegin(); it != d->decorators.rend(); ++it) {
                Value dec = eval(it->get(), s);
                setLine(st->span.line);
                fn = in.call(dec, {fn});
            }
            storeName(s, d->name, fn);
            return Flow::Normal;
        }
        case StmtKind::ClassDef: execClass(static_cast<const ClassDefStmt*>(st), s); return Flow::Normal;
        case StmtKind::Delete:
            for (auto& t : static_cast<const DeleteStmt*>(st)->targets) del(t.get(), s);
            return Flow::Normal;
        case StmtKind::Global:
        case StmtKind::Nonlocal: return Flow::Normal;
        case StmtKind::Assert: {
            auto* a = static_cast<const AssertStmt*>(st);
            Value test = eval(a->test.get(), s);
            if (in.tracer && test.isTensor()) {
                CallArgs ca;
                ca.pos = {test, a->msg ? eval(a->msg.get(), s) : Value()};
                traceOp(in, "torch._assert", ca, [](Interp& in, CallArgs& ca) {
                    if (!in.truthy(ca.pos[0])) {
                        if (!ca.pos[1].isNone()) throw in.ev().makePy(in.call(Value(in.assertionError), {ca.pos[1]}));
                        throw in.ev().makePy(in.makeException(in.assertionError, ""));
                    }
                    return Value();
                });
                return Flow::Normal;
            }
            if (!in.truthy(test)) {
                if (a->msg) {
                    Value m = eval(a->msg.get(), s);
                    throw makePy(in.call(Value(in.assertionError), {m}));
                }
                throw makePy(in.makeException(in.assertionError, ""));
            }
            return Flow::Normal;
        }
        case StmtKind::Raise: execRaise(static_cast<const RaiseStmt*>(st), s); return Flow::Normal;
        case StmtKind::Try: return execTry(static_cast<const TryStmt*>(st), s, ret);
        case StmtKind::With: return execWith(static_cast<const WithStmt*>(st), s, ret);
        case StmtKind::Match: {
            auto* m = static_cast<const MatchStmt*>(st);
            int k = matchCase(m, s);
            return k < 0 ? Flow::Normal : execBody(m->cases[size_t(k)].body, s, ret);
        }
        case StmtKind::Import: {
            for (auto& a : static_cast<const ImportStmt*>(st)->names) {
                Value m = importModule(a.name);
                if (!a.asname.empty()) storeName(s, a.asname, m);
                else {
                    std::string top = a.name.substr(0, a.name.find('.'));
                    storeName(s, top, importModule(top));
                }
            }
            return Flow::Normal;
        }
        case StmtKind::ImportFrom: {
            auto* im = static_cast<const ImportFromStmt*>(st);
            if (im->module == "__future__" && im->level == 0) return Flow::Normal;
            std::string target = im->level > 0 ? relativeTarget(im->module, im->level, s) : im->module;
            Value m = importModule(target);
            for (auto& a : im->names) {
                if (a.name == "*") {
                    auto& vars = m.as<ModuleObj>()->ns->vars;
                    std::vector<std::string> keys;
                    auto all = vars.find("__all__");
                    if (all != vars.end() && (all->second.is(OK::List) || all->second.is(OK::Tuple))) {
                        for (const Value& k : in.toVector(all->second)) { // the names the module exports
                            if (!k.isStr()) in.raiseType("Item in " + target + ".__all__ must be str, not " + in.typeName(k));
                            keys.push_back(strOf(k));
                        }
                    } else {
                        for (auto& [k, v] : vars)
                            if (!k.empty() && k[0] != '_') keys.push_back(k);
                        std::sort(keys.begin(), keys.end()); // unordered_map: bind in a fixed order
                    }
                    for (auto& k : keys) storeName(s, k, in.getAttr(m, k));
                    continue;
                }
                Value v;
                if (!in.tryGetAttr(m, a.name, v)) {
                    v = Value::missing();
                    auto sub = in.impl_->modules.find(target + "." + a.name);
                    if (sub != in.impl_->modules.end()) v = sub->second;
                    else if (isPackage(m)) v = importModule(target + "." + a.name, /*quietMissing=*/true);
                    if (v.isMissing()) {
                        auto& vars = m.as<ModuleObj>()->ns->vars;
                        auto file = vars.find("__file__");
                        std::string where = file != vars.end() && file->second.isStr() ? " (" + strOf(file->second) + ")"
                                            : target == "torch" || target.rfind("torch.", 0) == 0 ? " (not available in model scripts)"
                                                                                                  : " (unknown location)";
                        in.raise(in.importError, "cannot import name '" + a.name + "' from '" + target + "'" + where);
                    }
                }
                storeName(s, a.asname.empty() ? a.name : a.asname, v);
            }
            return Flow::Normal;
        }
        }
        return Flow::Normal;
    }

    // The case of a match statement that runs (-1: none): the first whose pattern matches the
    // subject, its names bound, and whose guard then holds.
    int matchCase(const MatchStmt* m, Scope* s) {
        Value subject = eval(m->subject.get(), s);
        PatternEval evalHere = [this, s](const Expr* x) { return eval(x, s); };
        for (size_t k = 0; k < m->cases.size(); ++k) {
            const MatchCase& c = m->cases[k];
            setLine(c.pattern->span.line);
            PatternBindings binds;
            if (!matchPattern(in, *c.pattern, subject, evalHere, binds)) continue;
            for (auto& [name, v] : binds) storeName(s, name, v);
            if (in.tracer && s == in.tracer->rootScope) unpackedLike(*c.pattern, m->subject.get(), subject);
            if (!c.guard) return int(k);
            setLine(c.guard->span.line);
            if (in.truthy(eval(c.guard.get(), s))) return int(k);
        }
        return -1;
    }

    // `case (a, b):` binds like `a, b = subject` (the tracer keeps a tensor's sizes bound so as
    // symbolic, where testing an item against a value would make them constants).
    void unpackedLike(const Pattern& p, const Expr* subjectExpr, const Value& subject) {
        if (p.kind != PatternKind::Sequence || !subject.is(OK::Tuple)) return;
        TupleExpr target;
        for (const auto& x : static_cast<const SequencePattern&>(p).patterns) {
            if (x->kind != PatternKind::As || static_cast<const AsPattern&>(*x).pattern) return;
            const std::string& name = static_cast<const AsPattern&>(*x).name;
            if (name.empty()) { // `_`: no name to bind
                target.elts.push_back(std::make_unique<ConstantExpr>());
                continue;
            }
            auto n = std::make_unique<NameExpr>();
            n->id = name;
            target.elts.push_back(std::move(n));
        }
        in.tracer->afterAssign(&target, subjectExpr, subject);
    }

    // `name: T` in a class or module body: T goes into the namespace's __annotations__, in order
    // (dataclasses read it). An annotation that cannot be evaluated (a forward reference, as
    // under `from __future__ import annotations`) is kept as its source text.
    void annotate(const std::string& name, const Expr* ann, Scope* s) {
        Value t;
        try {
            t = eval(ann, s);
        } catch (PyException&) {
            const Span& sp = ann->span;
            std::string text;
            if (currentModule && sp.line >= 1 && sp.line == sp.endLine && size_t(sp.line) <= currentModule->lines.size()) {
                const std::string& l = currentModule->lines[sp.line - 1];
                if (sp.col >= 0 && sp.endCol <= int(l.size()) && sp.col < sp.endCol) text = l.substr(sp.col, sp.endCol - sp.col);
            }
            t = makeStr(text);
        }
        auto it = s->vars.find("__annotations__");
        if (it == s->vars.end() || !it->second.is(OK::Dict)) {
            auto d = std::make_shared<DictObj>();
            it = s->vars.insert_or_assign("__annotations__", Value(d)).first;
            if (s->kind == Scope::ClassScope) s->order.push_back("__annotations__");
        }
        it->second.as<DictObj>()->map.set(makeStr(name), t);
    }

    // ---------------------------------------------------------------- imports
    // A module or package beside the script or on its search path (RunOptions::importPaths)
    // imports as in Python: its file is read, parsed and run once, in a module of its own that is
    // registered before it runs (so an import cycle sees the partly run module) and dropped again
    // if running it raises. A compiled extension is an error naming it and the imports that led
    // there.
    struct Located {
        enum Kind { None, Source, Package, Namespace, Extension } kind = None;
        std::string path; // the file (a package's __init__.py); a namespace package's folder
    };
    std::vector<std::string> importChain; // "name (file:line)" of the imports under way

    static Located locate(const std::string& leaf, const std::vector<std::string>& dirs) {
        namespace fs = std::filesystem;
        Located ns;
        std::error_code ec;
        for (auto& d : dirs) {
            fs::path base(d.empty() ? "." : d);
            fs::path pkg = base / leaf;
            if (fs::is_directory(pkg, ec)) {
                if (fs::is_regular_file(pkg / "__init__.py", ec)) return {Located::Package, (pkg / "__init__.py").string()};
                if (ns.kind == Located::None) ns = {Located::Namespace, pkg.string()};
            }
            // CPython's order: compiled extensions, then source
            static const std::vector<std::string> ext = [] {
                std::vector<std::string> v = {".abi3.so", ".so"};
                for (int minor = 6; minor <= 14; ++minor)
                    for (const char* arch : {"x86_64-linux-gnu", "aarch64-linux-gnu"})
                        v.push_back(".cpython-3" + std::to_string(minor) + "-" + arch + ".so");
                return v;
            }();
            for (auto& x : ext)
                if (fs::is_regular_file(base / (leaf + x), ec)) return {Located::Extension, (base / (leaf + x)).string()};
            if (fs::is_regular_file(base / (leaf + ".py"), ec)) return {Located::Source, (base / (leaf + ".py")).string()};
        }
        return ns;
    }

    bool isPackage(const Value& m) {
        if (!m.is(OK::Module)) return false;
        auto& vars = m.as<ModuleObj>()->ns->vars;
        auto p = vars.find("__path__");
        return p != vars.end() && p->second.is(OK::List);
    }

    // "a (main.py:3) -> a.b (a/__init__.py:1) -> NAME (a/b.py:7)": the imports that led to NAME
    std::string chainText(const std::string& name) {
        std::string r;
        for (auto& c : importChain) r += c + " -> ";
        return r + name + " (" + whereNow() + ")";
    }

    std::string whereNow() {
        auto& fr = in.frames();
        if (fr.empty() || !fr.back().module) return "?";
        return fr.back().module->filename + ":" + std::to_string(fr.back().line);
    }

    // The absolute name `from .x import y` (level dots) means in the running module.
    std::string relativeTarget(const std::string& module, int level, Scope* s) {
        Scope* g = s->globals ? s->globals.get() : s;
        auto p = g->vars.find("__package__");
        std::string pkg = p != g->vars.end() && p->second.isStr() ? strOf(p->second) : "";
        if (pkg.empty()) in.raise(in.importError, "attempted relative import with no known parent package");
        for (int i = 1; i < level; ++i) {
            auto dot = pkg.rfind('.');
            if (dot == std::string::npos) in.raise(in.importError, "attempted relative import beyond top-level package");
            pkg.erase(dot);
        }
        return module.empty() ? pkg : pkg + "." + module;
    }

    Value importModule(const std::string& name, bool quietMissing = false) {
        auto it = in.impl_->modules.find(name);
        if (it != in.impl_->modules.end()) return it->second;
        static const std::set<std::string> forbidden = {"subprocess", "socket", "shutil", "pathlib", "io",
                                                        "ctypes", "pickle", "importlib", "builtins", "urllib", "http",
                                                        "multiprocessing", "threading", "signal", "tempfile", "glob"};
        std::string top = name.substr(0, name.find('.'));
        if (forbidden.count(top))
            in.raise(in.moduleNotFoundError, "No module named '" + name + "' (not available in model scripts: a model script cannot touch files, processes or the network)" +
                                                 (importChain.empty() ? "" : "; imported through " + chainText(name)));
        auto dot = name.rfind('.');
        std::string leaf = dot == std::string::npos ? name : name.substr(dot + 1);
        Value parent = Value::missing();
        std::vector<std::string> dirs;
        if (dot != std::string::npos) {
            parent = importModule(name.substr(0, dot));
            it = in.impl_->modules.find(name); // the package's __init__ may have imported it
            if (it != in.impl_->modules.end()) return it->second;
            if (const char* src = bundledModule(name)) { // os.path
                Value m = loadBundled(name, src);
                if (parent.is(OK::Module)) parent.as<ModuleObj>()->ns->vars[leaf] = m;
                return m;
            }
            if (!isPackage(parent)) {
                if (quietMissing) return Value::missing();
                in.raise(in.moduleNotFoundError, "No module named '" + name + "'; '" + name.substr(0, dot) + "' is not a package");
            }
            for (auto& d : parent.as<ModuleObj>()->ns->vars["__path__"].as<ListObj>()->items)
                if (d.isStr()) dirs.push_back(strOf(d));
        } else {
            dirs = in.options().importPaths;
            // sys.path, once a script has imported sys, is where imports look (sys.path.insert(0, ...))
            auto sys = in.impl_->modules.find("sys");
            if (sys != in.impl_->modules.end() && sys->second.is(OK::Module)) {
                auto& vars = sys->second.as<ModuleObj>()->ns->vars;
                auto p = vars.find("path");
                if (p != vars.end() && p->second.is(OK::List)) {
                    dirs.clear();
                    for (auto& d : p->second.as<ListObj>()->items)
                        if (d.isStr()) dirs.push_back(strOf(d));
                }
            }
        }
        if (dot == std::string::npos)
            if (const char* src = bundledModule(name)) return loadBundled(name, src);
        Located at = locate(leaf, dirs);
        if (at.kind == Located::None) {
            if (quietMissing) return Value::missing();
            in.raise(in.moduleNotFoundError, "No module named '" + name + "'" +
                                                 (dot == std::string::npos ? " (not beside the script, on sys.path or in site-packages, nor one of the standard modules Fuselab provides)" : "") +
                                                 (importChain.empty() ? "" : "; imported through " + chainText(name)));
        }
        if (at.kind == Located::Extension)
            in.raise(in.importError, "cannot import '" + name + "': it is a compiled extension module (" + at.path +
                                         "), and model scripts import Python source only; imported through " + chainText(name));
        importChain.push_back(name + " (" + whereNow() + ")");
        struct PopChain { std::vector<std::string>& c; ~PopChain() { c.pop_back(); } } popChain{importChain};
        if (importChain.size() > 200) in.raise(in.recursionError, "imports nested too deeply");
        Value m = loadModule(name, at);
        if (parent.is(OK::Module)) parent.as<ModuleObj>()->ns->vars[leaf] = m;
        return m;
    }

    // Runs a module's body in module `m`, registered under `name` while it runs: the module is
    // unregistered again if running it raises, so a failed import leaves nothing half-made.
    // `load` (may raise) gives the tree; the module is registered before it, as Python does.
    Value runImported(const std::string& name, const Value& m, const std::function<std::shared_ptr<Module>()>& load) {
        in.registerModule(name, m);
        struct Unregister {
            Interp& in;
            std::string name;
            bool done = false;
            ~Unregister() { if (!done) in.impl_->modules.erase(name); }
        } unregister{in, name};
        std::shared_ptr<Module> ast = load();
        auto saved = currentModule;
        currentModule = ast;
        in.frames().push_back(Frame{"<module>", ast.get(), 1});
        struct Pop { Interp& in; Evaluator& e; std::shared_ptr<Module> m; ~Pop() { in.frames().pop_back(); e.currentModule = m; } } pop{in, *this, saved};
        Value ret;
        execBody(ast->body, m.as<ModuleObj>()->ns.get(), ret);
        unregister.done = true;
        return m;
    }

    // A standard-library module Fuselab writes in the script language (core/script/stdlib/),
    // run on first import like any module.
    Value loadBundled(const std::string& name, const char* source) {
        Value m = in.newModule(name);
        auto& vars = m.as<ModuleObj>()->ns->vars;
        vars["__package__"] = makeStr("");
        installStdlibHelpers(in, vars);
        return runImported(name, m, [&] { return parsedBundled(name, source); });
    }

    Value loadModule(const std::string& name, const Located& at) {
        Value m = in.newModule(name);
        auto& vars = m.as<ModuleObj>()->ns->vars;
        auto dot = name.rfind('.');
        bool package = at.kind == Located::Package || at.kind == Located::Namespace;
        if (package) {
            std::string dir = at.kind == Located::Namespace ? at.path : std::filesystem::path(at.path).parent_path().string();
            vars["__path__"] = makeList({makeStr(dir)});
        }
        vars["__package__"] = makeStr(package ? name : dot == std::string::npos ? "" : name.substr(0, dot));
        if (at.kind == Located::Namespace) {
            in.registerModule(name, m);
            return m;
        }
        vars["__file__"] = makeStr(at.path);
        return runImported(name, m, [&] {
            std::ifstream f(at.path, std::ios::binary);
            if (!f) in.raise(in.importError, "cannot read '" + at.path + "' to import '" + name + "'");
            std::ostringstream ss;
            ss << f.rdbuf();
            std::string source = ss.str();
            if (int64_t(source.size()) > in.options().maxAllocBytes) in.raise(in.memoryError, "'" + at.path + "' is too large to import");
            std::shared_ptr<Module> ast;
            try {
                ast = parseModule(source, at.path);
            } catch (SyntaxError& e) {
                in.raise(in.builtinClass(e.kind), e.message + " (" + at.path + ", line " + std::to_string(e.line) + ")");
            }
            in.impl_->importedAsts.push_back(ast);
            return ast;
        });
    }

    void execAugAssign(const AugAssignStmt* a, Scope* s) {
        const Expr* t = a->target.get();
        switch (t->kind) {
        case ExprKind::Name: {
            auto* n = static_cast<const NameExpr*>(t);
            Value cur = lookup(s, n->id);
            Value rhs = eval(a->value.get(), s);
            storeName(s, n->id, in.binary(a->op, cur, rhs, true));
            return;
        }
        case ExprKind::Attribute: {
            auto* at = static_cast<const AttributeExpr*>(t);
            Value obj = eval(at->value.get(), s);
            Value cur = in.getAttr(obj, at->attr);
            Value rhs = eval(a->value.get(), s);
            in.setAttr(obj, at->attr, in.binary(a->op, cur, rhs, true));
            return;
        }
        case ExprKind::Subscript: {
            auto* sub = static_cast<const SubscriptExpr*>(t);
            Value obj = eval(sub->value.get(), s);
            Value key = eval(sub->slice.get(), s);
            Value cur = in.getItem(obj, key);
            Value rhs = eval(a->value.get(), s);
            in.setItem(obj, key, in.binary(a->op, cur, rhs, true));
            return;
        }
        default: in.raise(in.builtinClass("SyntaxError"), "illegal expression for augmented assignment");
        }
    }

    Flow execFor(const ForStmt* f, Scope* s, Value& ret) { return execForLoop(f, eval(f->iter.get(), s), s, ret); }

    // The loop of a `for` statement over its already evaluated iterable.
    Flow execForLoop(const ForStmt* f, const Value& iterable, Scope* s, Value& ret) {
        // Fast paths keep Python semantics: ranges are immutable; lists are read by index each step.
        if (iterable.is(OK::Range)) {
            auto* r = iterable.as<RangeObj>();
            for (int64_t i = r->start; r->step > 0 ? i < r->stop : i > r->stop; i += r->step) {
                in.poll();
                assign(f->target.get(), Value::integer(i), s);
                Flow fl = execBody(f->body, s, ret);
                if (fl == Flow::Break) return Flow::Normal;
                if (fl == Flow::Return) return fl;
                setLine(f->span.line);
            }
            return execBody(f->orelse, s, ret);
        }
        Value it = in.iter(iterable);
        Value item;
        while (true) {
            in.poll();
            setLine(f->span.line);
            if (!in.next(it, item)) break;
            assign(f->target.get(), item, s);
            Flow fl = execBody(f->body, s, ret);
            if (fl == Flow::Break) return Flow::Normal;
            if (fl == Flow::Return) return fl;
        }
        return execBody(f->orelse, s, ret);
    }

    // C3 linearization of a class with these bases (Python's MRO), itself first; empty when the
    // bases admit no consistent order.
    static std::vector<ClassObj*> c3(ClassObj* cls, const std::vector<ClassP>& bases) {
        std::vector<std::vector<ClassObj*>> seqs;
        for (auto& b : bases) {
            std::vector<ClassObj*> o;
            for (const ClassObj* x : b->order()) o.push_back(const_cast<ClassObj*>(x));
            seqs.push_back(std::move(o));
        }
        std::vector<ClassObj*> direct;
        for (auto& b : bases) direct.push_back(b.get());
        seqs.push_back(direct);
        std::vector<ClassObj*> out = {cls};
        for (;;) {
            bool any = false;
            for (auto& q : seqs) any = any || !q.empty();
            if (!any) return out;
            ClassObj* pick = nullptr;
            for (auto& q : seqs) {
                if (q.empty()) continue;
                ClassObj* head = q.front();
                bool inTail = false;
                for (auto& r : seqs)
                    for (size_t k = 1; k < r.size() && !inTail; ++k) inTail = r[k] == head;
                if (!inTail) { pick = head; break; }
            }
            if (!pick) return {};
            out.push_back(pick);
            for (auto& q : seqs)
                if (!q.empty() && q.front() == pick) q.erase(q.begin());
        }
    }

    // The class statement's keywords (metaclass= taken out) go to the nearest base's
    // __init_subclass__ (an implicit classmethod), as type.__new__ does.
    void initSubclass(const ClassP& cls, CallArgs kw) {
        CallArgs ca;
        ca.pos.push_back(Value(cls));
        ca.kw = std::move(kw.kw);
        std::vector<const ClassObj*> order = cls->order();
        for (size_t i = 1; i < order.size(); ++i) {
            auto it = order[i]->attrs.find("__init_subclass__");
            if (it == order[i]->attrs.end()) continue;
            Value f = it->second;
            if (f.is(OK::Opaque)) {
                Value bound = f;
                if (in.unwrapDescriptor(bound, Value(), Value(cls))) { // bound to cls already
                    ca.pos.erase(ca.pos.begin());
                    in.call(bound, ca);
                    return;
                }
            }
            in.call(f, ca);
            return;
        }
        if (!ca.kw.empty()) in.raiseType(cls->name + ".__init_subclass__() takes no keyword arguments");
    }

    // The bases of a new class, checked: classes that scripts may subclass, no repeats.
    std::vector<ClassP> checkedBases(const std::string& name, const std::vector<Value>& given) {
        std::vector<ClassP> bases;
        for (const Value& b : given) {
            if (!b.is(OK::Class)) in.raiseType("class " + name + ": base must be a class, not '" + in.typeName(b) + "'");
            ClassP base = std::static_pointer_cast<ClassObj>(b.objp());
            bool allowed = !base->final_ && (!base->isBuiltinType || base->isSubclassOf(in.baseExc.get()) || base == in.objectCls || base == in.typeCls);
            if (!allowed) in.raiseType("subclassing '" + base->name + "' is not supported in model scripts");
            for (auto& other : bases)
                if (other == base) in.raiseType("duplicate base class " + base->name);
            bases.push_back(base);
        }
        if (bases.empty()) bases.push_back(in.objectCls);
        return bases;
    }

    // Links a new class to its bases (first base, all bases, C3 MRO).
    void linkBases(const ClassP& cls, const std::vector<ClassP>& bases) {
        cls->base = bases[0];
        if (bases.size() < 2 && bases[0]->mro.empty()) return; // the base chain is the MRO
        cls->bases = bases;
        cls->mro = c3(cls.get(), bases);
        if (cls->mro.empty()) {
            std::string names;
            for (auto& b : bases) names += (names.empty() ? "" : ", ") + b->name;
            in.raiseType("Cannot create a consistent method resolution\norder (MRO) for bases " + names);
        }
    }

    // A class body that defines __eq__ and not __hash__ makes its instances unhashable, as CPython's
    // type() does (__hash__ = None in the class's namespace).
    static void hashFollowsEq(const ClassP& cls) {
        if (cls->attrs.count("__eq__") && !cls->attrs.count("__hash__")) addClassAttr(cls, "__hash__", Value());
    }

    // A class's namespace entry: functions learn their class (zero-argument super()).
    static void addClassAttr(const ClassP& cls, const std::string& k, const Value& v) {
        if (k == "__abc_tpflags__" && v.isInt()) { // read, then dropped from the namespace, as abc does
            cls->collectionFlags |= uint8_t(v.i() & (kSequenceFlag | kMappingFlag));
            return;
        }
        if (!cls->attrs.count(k)) cls->attrOrder.push_back(k);
        cls->attrs[k] = v;
        if (v.is(OK::Function)) {
            auto* fn = v.as<FunctionObj>();
            if (fn->owner.expired()) fn->owner = cls;
        }
    }

    // The metaclass of a class statement: `metaclass=` when given (`type`, and abc's ABCMeta, a
    // marker, mean none), else the most derived of its bases' metaclasses.
    // `type` itself, or abc's ABCMeta (a marker class): a metaclass= that changes nothing.
    bool plainMeta(const Value& v) const {
        if (!v.is(OK::Class)) return false;
        auto* c = v.as<ClassObj>();
        return c == in.typeCls.get() || (c->name == "ABCMeta" && c->module == "abc");
    }

    ClassP metaclassOf(const Value& given, const std::vector<ClassP>& bases) {
        ClassP meta;
        if (!given.isMissing() && !plainMeta(given)) meta = std::static_pointer_cast<ClassObj>(given.objp()); // a subclass of type (execClass)
        for (auto& b : bases) {
            if (!b->meta || (meta && meta->isSubclassOf(b->meta.get()))) continue;
            if (meta && !b->meta->isSubclassOf(meta.get()))
                in.raiseType("metaclass conflict: the metaclass of a derived class must be a (non-strict) subclass of the metaclasses of all its bases");
            meta = b->meta;
        }
        return meta;
    }

    // A class made by a metaclass: meta.__new__(meta, name, bases, ns, **kw) (type.__new__ unless
    // the metaclass has its own), then meta.__init__ when the result is an instance of meta.
    // `pending` is the class object the class body's functions already know (their super()):
    // type.__new__ fills that one rather than a new one.
    Value classViaMeta(const ClassP& meta, const std::string& name, const Value& bases, const Value& ns, CallArgs kw, ClassP pending) {
        pendingClass = std::move(pending);
        struct Clear { ClassP& p; ~Clear() { p.reset(); } } clear{pendingClass};
        const Value* nw = meta->lookup("__new__");
        CallArgs a;
        a.pos = {Value(meta), makeStr(name), bases, ns};
        a.kw = kw.kw;
        Value made = in.call(*nw, a);
        if (made.is(OK::Class) && made.as<ClassObj>()->meta && made.as<ClassObj>()->meta->isSubclassOf(meta.get()))
            if (const Value* init = meta->lookup("__init__"); init && init->is(OK::Function)) {
                CallArgs ia;
                ia.pos = {made, makeStr(name), bases, ns};
                ia.kw = std::move(kw.kw);
                in.call(*init, ia);
            }
        return made;
    }
    ClassP pendingClass;

    // type.__new__(mcs, name, bases, ns, **kw): a class from a namespace dict, in its order.
    Value typeNew(CallArgs& a) {
        if (a.pos.size() != 4 || !a.pos[0].is(OK::Class) || !a.pos[1].isStr() || !a.pos[2].is(OK::Tuple) || !a.pos[3].is(OK::Dict))
            in.raiseType("type.__new__(X): expected (metaclass, name: str, bases: tuple, namespace: dict)");
        ClassP mcs = std::static_pointer_cast<ClassObj>(a.pos[0].objp());
        if (!mcs->isSubclassOf(in.typeCls.get())) in.raiseType("type.__new__(" + mcs->name + "): " + mcs->name + " is not a subtype of type");
        std::string name = strOf(a.pos[1]);
        std::vector<ClassP> bases = checkedBases(name, a.pos[2].as<TupleObj>()->items);
        ClassP cls = pendingClass && pendingClass->name == name ? pendingClass : std::make_shared<ClassObj>();
        pendingClass.reset();
        cls->name = name;
        cls->attrs.clear();
        cls->attrOrder.clear();
        linkBases(cls, bases);
        cls->module = "__main__";
        for (auto& e : a.pos[3].as<DictObj>()->map.entries()) {
            if (!e.live) continue;
            if (!e.key.isStr()) in.raiseType("type.__new__(): the namespace's keys must be strings");
            addClassAttr(cls, strOf(e.key), e.val);
        }
        if (auto m = cls->attrs.find("__module__"); m != cls->attrs.end() && m->second.isStr()) cls->module = strOf(m->second);
        hashFollowsEq(cls);
        if (mcs != in.typeCls) cls->meta = mcs;
        else cls->meta = metaclassOf(Value::missing(), bases);
        CallArgs kw;
        kw.kw = std::move(a.kw);
        initSubclass(cls, std::move(kw));
        return Value(cls);
    }

    void execClass(const ClassDefStmt* c, Scope* s) {
        std::vector<Value> given;
        for (auto& be : c->bases) given.push_back(eval(be.get(), s));
        std::vector<ClassP> bases = checkedBases(c->name, given);
        CallArgs kws; // the class statement's keywords, metaclass= apart
        Value metaGiven = Value::missing();
        for (auto& kw : c->keywords) {
            Value v = eval(kw.value.get(), s);
            if (kw.arg == "metaclass") { metaGiven = v; continue; }
            if (kw.arg.empty()) { // class C(**kwargs)
                if (!v.is(OK::Dict)) in.raiseType("argument after ** must be a mapping, not " + in.typeName(v));
                for (auto& e : v.as<DictObj>()->map.entries())
                    if (e.live) kws.kw.emplace_back(in.str(e.key), e.val);
                continue;
            }
            kws.kw.emplace_back(kw.arg, v);
        }
        // metaclass= something other than a class derived from type: called with (name, bases, ns)
        bool metaCallable = !metaGiven.isMissing() && !plainMeta(metaGiven) &&
                            !(metaGiven.is(OK::Class) && metaGiven.as<ClassObj>()->isSubclassOf(in.typeCls.get()));
        ClassP meta = metaCallable ? ClassP() : metaclassOf(metaGiven, bases);
        auto cls = std::make_shared<ClassObj>();
        cls->name = c->name;
        linkBases(cls, bases);
        Scope* g = globalsOf(s);
        auto modName = g->vars.find("__name__");
        cls->module = modName != g->vars.end() && modName->second.isStr() ? strOf(modName->second) : "__main__";
        auto cs = std::make_shared<Scope>();
        cs->kind = Scope::ClassScope;
        cs->parent = s->kind == Scope::ClassScope ? s->parent : shareScope(s);
        cs->globals = s->globals ? s->globals : shareScope(s);
        storeName(cs.get(), "__module__", makeStr(cls->module));
        storeName(cs.get(), "__qualname__", makeStr(qualPrefix(s) + c->name));
        Value ret;
        ownerStack.push_back(cls);
        try {
            execBody(c->body, cs.get(), ret);
        } catch (...) {
            ownerStack.pop_back();
            throw;
        }
        ownerStack.pop_back();
        if (cs->order.size() != cs->vars.size()) { // a name set some other way than storeName: keep it, last
            std::set<std::string> listed(cs->order.begin(), cs->order.end());
            std::vector<std::string> rest;
            for (auto& [k, v] : cs->vars)
                if (!listed.count(k)) rest.push_back(k);
            std::sort(rest.begin(), rest.end());
            cs->order.insert(cs->order.end(), rest.begin(), rest.end());
        }
        Value clsV;
        if (!metaCallable && !meta) {
            if (auto mm = cs->vars.find("__module__"); mm != cs->vars.end() && mm->second.isStr()) cls->module = strOf(mm->second);
            for (auto& k : cs->order)
                if (auto v = cs->vars.find(k); v != cs->vars.end()) addClassAttr(cls, k, v->second);
            hashFollowsEq(cls);
            clsV = Value(cls);
            initSubclass(cls, std::move(kws));
        } else { // the namespace and the bases as written go to the metaclass
            auto ns = std::make_shared<DictObj>();
            for (auto& k : cs->order)
                if (auto v = cs->vars.find(k); v != cs->vars.end()) ns->map.set(makeStr(k), v->second);
            if (metaCallable) {
                CallArgs ma;
                ma.pos = {makeStr(c->name), makeTuple(given), Value(ns)};
                ma.kw = std::move(kws.kw);
                clsV = in.call(metaGiven, ma);
            } else {
                clsV = classViaMeta(meta, c->name, makeTuple(given), Value(ns), std::move(kws), cls);
            }
        }
        for (auto it = c->decorators.rbegin(); it != c->decorators.rend(); ++it) clsV = in.call(eval(it->get(), s), {clsV});
        storeName(s, c->name, clsV);
    }

    std::vector<ClassP> ownerStack;

    // What CPython puts before a name defined in scope s to make its __qualname__: the class's
    // qualified name and a dot, the function's and ".<locals>.", nothing at module level.
    static std::string qualPrefix(Scope* s) {
        if (s->kind == Scope::ClassScope) {
            auto q = s->vars.find("__qualname__");
            return q != s->vars.end() && q->second.isStr() ? strOf(q->second) + "." : "";
        }
        if (s->kind == Scope::FunctionScope && s->info && !s->info->qualname.empty()) return s->info->qualname + ".<locals>.";
        return "";
    }

    // Scopes are always owned by shared_ptr; raw pointers passed around come from those.
    static ScopeP shareScope(Scope* s) { return s->shared_from_this(); }
    static ScopeP newScope(Scope::Kind k) {
        auto sp = std::make_shared<Scope>();
        sp->kind = k;
        return sp;
    }

    Value makeFunction(const FunctionDefStmt* d, const LambdaExpr* l, Scope* s) {
        auto fn = std::make_shared<FunctionObj>();
        fn->def = d;
        fn->lambda = l;
        fn->ast = currentModule;
        ScopeP defScope = s->kind == Scope::ClassScope ? s->parent : shareScope(s);
        fn->closure = defScope;
        fn->globals = s->globals ? s->globals : shareScope(s);
        fn->name = d ? d->name : "<lambda>";
        fn->qualname = qualPrefix(s) + fn->name;
        if (!ownerStack.empty() && s->kind == Scope::ClassScope) fn->owner = ownerStack.back();
        const Arguments& args = fn->args();
        for (auto& e : args.defaults) fn->defaults.push_back(eval(e.get(), s));
        for (auto& e : args.kwDefaults) fn->kwDefaults.push_back(e ? eval(e.get(), s) : Value::missing());
        return Value(fn);
    }

    void execRaise(const RaiseStmt* r, Scope* s) {
        if (!r->exc) {
            if (in.impl_->handling.empty()) in.raise(in.runtimeError, "No active exception to reraise");
            throw PyException{in.impl_->handling.back(), savedTb.count(in.impl_->handling.back().obj()) ? savedTb[in.impl_->handling.back().obj()] : snapshot()};
        }
        Value e = eval(r->exc.get(), s);
        Value exc = instantiateException(e);
        if (r->cause) {
            Value cause = eval(r->cause.get(), s);
            if (!cause.isNone()) cause = instantiateException(cause);
            in.setAttr(exc, "__cause__", cause);
        }
        throw makePy(exc);
    }

    Value instantiateException(const Value& e) {
        if (e.is(OK::Class) && e.as<ClassObj>()->isSubclassOf(in.baseExc.get())) { CallArgs none; return in.call(e, none); }
        if (e.is(OK::Instance) && e.as<InstanceObj>()->cls->isSubclassOf(in.baseExc.get())) return e;
        in.raiseType("exceptions must derive from BaseException");
    }

    std::unordered_map<const Obj*, std::vector<TraceEntry>> savedTb;

    std::vector<TraceEntry> snapshot() {
        std::vector<TraceEntry> tb;
        for (auto& f : in.frames()) {
            TraceEntry t;
            t.file = f.module ? f.module->filename : "<unknown>";
            t.line = f.line;
            t.function = f.function;
            if (f.module && f.line >= 1 && size_t(f.line) <= f.module->lines.size()) t.sourceLine = stripped(f.module->lines[f.line - 1]);
            tb.push_back(std::move(t));
        }
        return tb;
    }

    PyException makePy(const Value& exc) { return PyException{exc, snapshot()}; }

    bool matches(const Value& exc, const Value& type) {
        if (type.is(OK::Class)) return in.isInstance(exc, type.as<ClassObj>());
        if (type.is(OK::Tuple)) {
            for (auto& t : type.as<TupleObj>()->items)
                if (matches(exc, t)) return true;
            return false;
        }
        in.raiseType("catching classes that do not inherit from BaseException is not allowed");
    }

    Flow execTry(const TryStmt* t, Scope* s, Value& ret) {
        Flow flow = Flow::Normal;
        bool pendingFinally = !t->finalbody.empty();
        try {
            bool raised = false;
            try {
                try {
                    flow = execBody(t->body, s, ret);
                } catch (NestingTooDeep&) { // from hashing or comparing nested keys: a RecursionError the script can catch
                    in.raise(in.recursionError, "maximum recursion depth exceeded while hashing or comparing nested keys");
                }
            } catch (PyException& e) {
                raised = true;
                bool handled = false;
                for (auto& h : t->handlers) {
                    if (h.type) {
                        Value ty = eval(h.type.get(), s);
                        if (!matches(e.exc, ty)) continue;
                    }
                    handled = true;
                    savedTb[e.exc.obj()] = e.traceback;
                    in.impl_->handling.push_back(e.exc);
                    if (!h.name.empty()) storeName(s, h.name, e.exc);
                    try {
                        flow = execBody(h.body, s, ret);
                    } catch (...) {
                        in.impl_->handling.pop_back();
                        savedTb.erase(e.exc.obj());
                        throw;
                    }
                    in.impl_->handling.pop_back();
                    savedTb.erase(e.exc.obj());
                    if (!h.name.empty()) storeScope(s, h.name)->vars.erase(h.name);
                    break;
                }
                if (!handled) throw;
            }
            if (!raised && flow == Flow::Normal) flow = execBody(t->orelse, s, ret);
        } catch (PyException&) {
            if (pendingFinally) {
                Value r2;
                Flow ff = execBody(t->finalbody, s, r2);
                if (ff != Flow::Normal) { ret = r2; return ff; } // return/break in finally swallows
            }
            throw;
        }
        if (pendingFinally) {
            Value r2;
            Flow ff = execBody(t->finalbody, s, r2);
            if (ff != Flow::Normal) { ret = r2; return ff; }
        }
        return flow;
    }

    Flow execWith(const WithStmt* w, Scope* s, Value& ret) { return execWithItem(w, 0, s, ret); }

    Flow execWithItem(const WithStmt* w, size_t idx, Scope* s, Value& ret) {
        if (idx == w->items.size()) return execBody(w->body, s, ret);
        const WithItem& item = w->items[idx];
        Value mgr = eval(item.contextExpr.get(), s);
        Value enter, exit;
        if (!in.tryGetAttr(mgr, "__enter__", enter) || !in.tryGetAttr(mgr, "__exit__", exit))
            in.raiseType("'" + in.typeName(mgr) + "' object does not support the context manager protocol");
        Value v = in.call(enter, std::vector<Value>{});
        if (item.optionalVars) assign(item.optionalVars.get(), v, s);
        Flow f;
        try {
            f = execWithItem(w, idx + 1, s, ret);
        } catch (PyException& e) {
            Value suppress = in.call(exit, {Value(in.typeOf(e.exc)->shared_from_this()), e.exc, Value()});
            if (in.truthy(suppress)) return Flow::Normal;
            throw;
        }
        in.call(exit, {Value(), Value(), Value()});
        return f;
    }

    // ---------------- assignment targets
    void assign(const Expr* t, const Value& v, Scope* s) {
        switch (t->kind) {
        case ExprKind::Name: storeName(s, static_cast<const NameExpr*>(t)->id, v); return;
        case ExprKind::Attribute: {
            auto* a = static_cast<const AttributeExpr*>(t);
            in.setAttr(eval(a->value.get(), s), a->attr, v);
            return;
        }
        case ExprKind::Subscript: {
            auto* sub = static_cast<const SubscriptExpr*>(t);
            Value obj = eval(sub->value.get(), s);
            in.setItem(obj, eval(sub->slice.get(), s), v);
            return;
        }
        case ExprKind::Tuple: unpack(static_cast<const TupleExpr*>(t)->elts, v, s); return;
        case ExprKind::List: unpack(static_cast<const ListExpr*>(t)->elts, v, s); return;
        case ExprKind::Starred: in.raise(in.builtinClass("SyntaxError"), "starred assignment target must be in a list or tuple");
        default: in.raise(in.builtinClass("SyntaxError"), "cannot assign to expression");
        }
    }

    void unpack(const std::vector<ExprP>& targets, const Value& v, Scope* s) {
        std::vector<Value> items = in.toVector(v);
        int star = -1;
        for (size_t i = 0; i < targets.size(); ++i)
            if (targets[i]->kind == ExprKind::Starred) star = int(i);
        if (star < 0) {
            if (items.size() > targets.size())
                in.raiseValue("too many values to unpack (expected " + std::to_string(targets.size()) + ")");
            if (items.size() < targets.size())
                in.raiseValue("not enough values to unpack (expected " + std::to_string(targets.size()) + ", got " + std::to_string(items.size()) + ")");
            for (size_t i = 0; i < targets.size(); ++i) assign(targets[i].get(), items[i], s);
            return;
        }
        size_t after = targets.size() - star - 1;
        if (items.size() < targets.size() - 1)
            in.raiseValue("not enough values to unpack (expected at least " + std::to_string(targets.size() - 1) + ", got " + std::to_string(items.size()) + ")");
        for (int i = 0; i < star; ++i) assign(targets[i].get(), items[i], s);
        std::vector<Value> mid(items.begin() + star, items.end() - after);
        assign(static_cast<const StarredExpr*>(targets[star].get())->value.get(), makeList(std::move(mid)), s);
        for (size_t i = 0; i < after; ++i) assign(targets[star + 1 + i].get(), items[items.size() - after + i], s);
    }

    void del(const Expr* t, Scope* s) {
        switch (t->kind) {
        case ExprKind::Name: {
            auto* n = static_cast<const NameExpr*>(t);
            Scope* sc = storeScope(s, n->id);
            if (!sc->vars.erase(n->id)) in.raise(in.nameError, "name '" + n->id + "' is not defined");
            return;
        }
        case ExprKind::Attribute: {
            auto* a = static_cast<const AttributeExpr*>(t);
            in.delAttr(eval(a->value.get(), s), a->attr);
            return;
        }
        case ExprKind::Subscript: {
            auto* sub = static_cast<const SubscriptExpr*>(t);
            Value obj = eval(sub->value.get(), s);
            in.delItem(obj, eval(sub->slice.get(), s));
            return;
        }
        case ExprKind::Tuple:
            for (auto& e : static_cast<const TupleExpr*>(t)->elts) del(e.get(), s);
            return;
        case ExprKind::List:
            for (auto& e : static_cast<const ListExpr*>(t)->elts) del(e.get(), s);
            return;
        default: in.raise(in.builtinClass("SyntaxError"), "cannot delete expression");
        }
    }

    // ---------------- expressions
    // Substitutions while finishing a broken statement: completed sub-expressions' values.
    const std::vector<std::pair<const Expr*, Value>>* subst = nullptr;
    int substDepth = -1;

    Value eval(const Expr* e, Scope* s) {
        if (subst && in.impl_->depth == substDepth)
            for (auto& [x, v] : *subst)
                if (x == e) return v;
        if (!in.tracer) return evalImpl(e, s);
        Value v = evalImpl(e, s);
        in.tracer->exprDone(e, v);
        return v;
    }

    // ---------------- symbolic scalars while tracing (TraceHooks::isSymName)
    bool isSymExpr(const Expr* e, Scope* s) {
        if (!in.tracer || s != in.tracer->rootScope) return false;
        if (e->kind == ExprKind::Name) return in.tracer->isSymName(static_cast<const NameExpr*>(e)->id);
        if (e->kind == ExprKind::BinOp) {
            auto* b = static_cast<const BinOpExpr*>(e);
            return isSymExpr(b->left.get(), s) || isSymExpr(b->right.get(), s);
        }
        return false;
    }

    void specializeSyms(const Expr* e, Scope* s) {
        if (e->kind == ExprKind::Name) in.tracer->specializeName(static_cast<const NameExpr*>(e)->id);
        else if (e->kind == ExprKind::BinOp) {
            auto* b = static_cast<const BinOpExpr*>(e);
            specializeSyms(b->left.get(), s);
            specializeSyms(b->right.get(), s);
        }
    }

    // Evaluates e; `ref` gets its graph argument (a Sym placeholder, a Sym arithmetic node, a
    // tensor's node or a constant).
    Value evalSym(const Expr* e, Scope* s, SymRef& ref) {
        auto* tr = in.tracer;
        if (e->kind == ExprKind::Name && tr->isSymName(static_cast<const NameExpr*>(e)->id)) {
            Value v = lookup(s, static_cast<const NameExpr*>(e)->id);
            ref = tr->scalarPlaceholder(static_cast<const NameExpr*>(e)->id, v);
            return v;
        }
        if (e->kind == ExprKind::BinOp && isSymExpr(e, s)) {
            auto* b = static_cast<const BinOpExpr*>(e);
            SymRef lt, rt;
            Value l = evalSym(b->left.get(), s, lt);
            Value r = evalSym(b->right.get(), s, rt);
            tr->curExpr = e;
            if (l.isNumber() && r.isNumber()) {
                Value out;
                ref = tr->symBinary(b->op, l, lt, r, rt, out);
                tr->exprDone(e, out);
                return out;
            }
            tr->pendingPos = {{0, lt}, {1, rt}};
            tr->pendingKw.clear();
            tr->pendingCall = nullptr;
            tr->pendingBinary = true;
            Value v = in.binary(b->op, l, r);
            if (tr->pendingBinary) { tr->pendingBinary = false; specializeSyms(e, s); }
            ref = tr->symOf(v);
            tr->exprDone(e, v);
            return v;
        }
        Value v = eval(e, s);
        ref = tr->symOf(v);
        return v;
    }

    Value evalImpl(const Expr* e, Scope* s) {
        switch (e->kind) {
        case ExprKind::Name: {
            const std::string& id = static_cast<const NameExpr*>(e)->id;
            Value v = lookup(s, id);
            if (in.tracer && s == in.tracer->rootScope) in.tracer->onLocalRead(id, v);
            return v;
        }
        case ExprKind::Constant: return constant(static_cast<const ConstantExpr*>(e));
        case ExprKind::BinOp: {
            auto* b = static_cast<const BinOpExpr*>(e);
            if (in.tracer && isSymExpr(e, s)) {
                // a symbolic scalar input in arithmetic: graph nodes; used as a plain number here
                SymRef t;
                Value v = evalSym(e, s, t);
                if (!v.isTensor()) specializeSyms(e, s);
                return v;
            }
            Value l = eval(b->left.get(), s);
            Value r = eval(b->right.get(), s);
            if (in.tracer) in.tracer->curExpr = e;
            return in.binary(b->op, l, r);
        }
        case ExprKind::UnaryOp: return unary(static_cast<const UnaryOpExpr*>(e), s);
        case ExprKind::BoolOp: {
            auto* b = static_cast<const BoolOpExpr*>(e);
            Value v;
            for (auto& x : b->values) {
                v = eval(x.get(), s);
                bool t = in.truthy(v);
                if (b->op == BoolOpKind::And ? !t : t) return v;
            }
            return v;
        }
        case ExprKind::Compare: {
            auto* c = static_cast<const CompareExpr*>(e);
            Value left = eval(c->left.get(), s);
            Value result;
            for (size_t i = 0; i < c->ops.size(); ++i) {
                Value right = eval(c->comparators[i].get(), s);
                if (in.tracer) in.tracer->curExpr = e;
                result = in.compare(c->ops[i], left, right);
                if (i + 1 < c->ops.size() && !in.truthy(result)) return result;
                left = right;
            }
            return result;
        }
        case ExprKind::Call: return evalCall(static_cast<const CallExpr*>(e), s);
        case ExprKind::Attribute: {
            auto* a = static_cast<const AttributeExpr*>(e);
            Value base = eval(a->value.get(), s);
            if (in.tracer) in.tracer->curExpr = e;
            Value r = in.getAttr(base, a->attr);
            if (in.tracer) in.tracer->onAttr(base, a->attr, r);
            return r;
        }
        case ExprKind::Subscript: {
            auto* sub = static_cast<const SubscriptExpr*>(e);
            Value obj = eval(sub->value.get(), s);
            Value key = eval(sub->slice.get(), s);
            if (in.tracer) in.tracer->curExpr = e;
            Value r = in.getItem(obj, key);
            if (in.tracer) in.tracer->onItem(obj, key, r);
            return r;
        }
        case ExprKind::Slice: {
            auto* sl = static_cast<const SliceExpr*>(e);
            auto so = std::make_shared<SliceObj>();
            if (sl->lower) so->start = eval(sl->lower.get(), s);
            if (sl->upper) so->stop = eval(sl->upper.get(), s);
            if (sl->step) so->step = eval(sl->step.get(), s);
            return Value(so);
        }
        case ExprKind::Tuple: {
            auto* t = static_cast<const TupleExpr*>(e);
            return makeTuple(evalElts(t->elts, s));
        }
        case ExprKind::List: return makeList(evalElts(static_cast<const ListExpr*>(e)->elts, s));
        case ExprKind::Set: {
            auto so = std::make_shared<SetObj>();
            for (auto& v : evalElts(static_cast<const SetExpr*>(e)->elts, s)) setAdd(so.get(), v);
            return Value(so);
        }
        case ExprKind::Dict: {
            auto* d = static_cast<const DictExpr*>(e);
            auto dobj = std::make_shared<DictObj>();
            for (size_t i = 0; i < d->keys.size(); ++i) {
                if (!d->keys[i]) {
                    Value other = mappingAsDict(eval(d->values[i].get(), s));
                    if (!other.is(OK::Dict)) in.raiseType("'" + in.typeName(other) + "' object is not a mapping");
                    if (in.tracer) in.tracer->onSeqUse(other); // {**d} reads every entry
                    for (auto& en : other.as<DictObj>()->map.entries())
                        if (en.live) dictSet(dobj.get(), en.key, en.val);
                    continue;
                }
                Value k = eval(d->keys[i].get(), s);
                Value v = eval(d->values[i].get(), s);
                dictSet(dobj.get(), k, v);
            }
            return Value(dobj);
        }
        case ExprKind::IfExp: {
            auto* i = static_cast<const IfExpExpr*>(e);
            return in.truthy(eval(i->test.get(), s)) ? eval(i->body.get(), s) : eval(i->orelse.get(), s);
        }
        case ExprKind::Lambda: return makeFunction(nullptr, static_cast<const LambdaExpr*>(e), s);
        case ExprKind::ListComp:
        case ExprKind::SetComp:
        case ExprKind::GeneratorExp:
        case ExprKind::DictComp: return comprehension(static_cast<const CompExpr*>(e), s);
        case ExprKind::FString: return makeStr(fstring(static_cast<const FStringExpr*>(e), s));
        case ExprKind::Starred: in.raise(in.builtinClass("SyntaxError"), "can't use starred expression here");
        case ExprKind::NamedExpr: {
            auto* n = static_cast<const NamedExprExpr*>(e);
            Value v = eval(n->value.get(), s);
            Scope* target = s;
            while (target->kind == Scope::CompScope && target->parent) target = target->parent.get();
            storeName(target, n->target, v);
            return v;
        }
        case ExprKind::Yield: {
            auto* y = static_cast<const YieldExpr*>(e);
            GenState* g = in.impl_->running.empty() ? nullptr : in.impl_->running.back();
            if (!g || g->scope.get() != s) in.raise(in.runtimeError, "'yield' in a function that is not running as a generator");
            if (y->from) return yieldFrom(*g, eval(y->value.get(), s));
            return yieldValue(*g, y->value ? eval(y->value.get(), s) : Value());
        }
        }
        in.raise(in.runtimeError, "internal: unknown expression");
    }

    // How CPython names a callee in a call's errors: "module.qualname()", "name()" for builtins.
    std::string calleeText(const Value& fn) {
        if (fn.is(OK::BoundMethod)) return calleeText(fn.as<BoundMethodObj>()->func);
        if (fn.is(OK::Builtin)) return fn.as<BuiltinObj>()->name + "()";
        std::string module, qual;
        if (fn.is(OK::Function)) {
            auto* f = fn.as<FunctionObj>();
            if (f->globals) {
                auto name = f->globals->vars.find("__name__");
                if (name != f->globals->vars.end() && name->second.isStr()) module = strOf(name->second);
            }
            qual = f->qualname;
        } else if (fn.is(OK::Class)) {
            auto* c = fn.as<ClassObj>();
            auto q = c->attrs.find("__qualname__");
            module = c->module;
            qual = q != c->attrs.end() && q->second.isStr() ? strOf(q->second) : c->name;
        } else {
            return in.typeName(fn) + " object";
        }
        return (module.empty() || module == "builtins" ? "" : module + ".") + qual + "()";
    }

    // `**m` of an instance with keys() (a mapping, to CPython): the dict its keys and items make.
    Value mappingAsDict(const Value& v) {
        Value keys;
        if (!v.is(OK::Instance) || !in.tryGetAttr(v, "keys", keys)) return v;
        CallArgs a;
        a.pos.push_back(v);
        return in.dictCls->ctor(in, a);
    }

    void setAdd(SetObj* so, const Value& v) {
        try {
            so->map.set(v, Value());
        } catch (UnhashableError& u) {
            in.raiseType("unhashable type: '" + u.typeName + "'");
        }
    }
    void dictSet(DictObj* d, const Value& k, const Value& v) {
        try {
            d->map.set(k, v);
        } catch (UnhashableError& u) {
            in.raiseType("unhashable type: '" + u.typeName + "'");
        }
    }

    Value constant(const ConstantExpr* c) {
        switch (c->ck) {
        case ConstKind::None: return Value();
        case ConstKind::True: return Value::boolean(true);
        case ConstKind::False: return Value::boolean(false);
        case ConstKind::Int:
            if (c->bigInt) {
                BigInt b;
                if (!BigInt::fromDecimal(c->s, b)) in.raise(in.overflowError, "integer literal too large (only decimal literals may exceed 64 bits)");
                return makeInt(b);
            }
            return Value::integer(c->i);
        case ConstKind::Float: return Value::real(c->f);
        case ConstKind::Str: {
            // Interned per node: string constants are immutable.
            auto it = strConsts.find(c);
            if (it != strConsts.end()) return it->second;
            Value v = makeStr(c->s);
            strConsts.emplace(c, v);
            return v;
        }
        case ConstKind::Ellipsis: return in.impl_->ellipsis;
        }
        return Value();
    }
    std::unordered_map<const ConstantExpr*, Value> strConsts;

    std::vector<Value> evalElts(const std::vector<ExprP>& elts, Scope* s) {
        std::vector<Value> out;
        out.reserve(elts.size());
        for (auto& x : elts) {
            if (x->kind == ExprKind::Starred) {
                for (auto& v : in.toVector(eval(static_cast<const StarredExpr*>(x.get())->value.get(), s))) out.push_back(v);
            } else {
                out.push_back(eval(x.get(), s));
            }
        }
        return out;
    }

    Value unary(const UnaryOpExpr* u, Scope* s) {
        Value v = eval(u->operand.get(), s);
        switch (u->op) {
        case UnaryOpKind::Not: return Value::boolean(!in.truthy(v));
        case UnaryOpKind::USub:
            if (v.isFloat()) return Value::real(-v.f());
            if (v.isIntLike()) {
                if (v.i() == INT64_MIN) return makeInt(-BigInt::fromInt(v.i()));
                return Value::integer(-v.i());
            }
            if (isBigInt(v)) return makeInt(-v.as<BigIntObj>()->v);
            if (v.isTensor()) return tensorUnary(in, "neg", v);
            return userUnary(v, "__neg__", "-");
        case UnaryOpKind::UAdd:
            if (v.isFloat()) return v;
            if (v.isIntLike() || isBigInt(v)) return v.isBool() ? Value::integer(v.i()) : v;
            if (v.isTensor()) return tensorUnary(in, "positive", v);
            return userUnary(v, "__pos__", "+");
        case UnaryOpKind::Invert:
            if (v.isIntLike()) return Value::integer(~v.i());
            if (isBigInt(v)) return makeInt(-v.as<BigIntObj>()->v - BigInt::fromInt(1)); // ~x == -x - 1
            if (v.isTensor()) return tensorUnary(in, "bitwise_not", v);
            return userUnary(v, "__invert__", "~");
        }
        return Value();
    }

    Value userUnary(const Value& v, const char* dunder, const char* sym) {
        Value m;
        if (v.is(OK::Instance) && in.tryGetAttr(v, dunder, m)) return in.call(m, std::vector<Value>{});
        in.raiseType(std::string("bad operand type for unary ") + sym + ": '" + in.typeName(v) + "'");
    }

    std::string fstring(const FStringExpr* f, Scope* s) {
        if (f->field) return formatField(*f->field, s);
        std::string out;
        for (auto& p : f->parts) {
            if (p->kind == ExprKind::Constant) out += static_cast<const ConstantExpr*>(p.get())->s;
            else out += fstring(static_cast<const FStringExpr*>(p.get()), s);
        }
        return out;
    }

    std::string formatField(const FormattedValue& fv, Scope* s) {
        Value v = eval(fv.value.get(), s);
        std::string spec;
        for (auto& p : fv.formatSpec) {
            if (p->kind == ExprKind::Constant) spec += static_cast<const ConstantExpr*>(p.get())->s;
            else spec += fstring(static_cast<const FStringExpr*>(p.get()), s);
        }
        char conv = fv.conversion;
        if (fv.selfDocumenting && conv == 0 && spec.empty()) conv = 'r';
        if (conv == 'r' || conv == 'a') v = makeStr(in.repr(v));
        else if (conv == 's') v = makeStr(in.str(v));
        return formatValue(in, v, spec);
    }

    // ---------------- comprehensions (generator expressions are evaluated eagerly)
    Value comprehension(const CompExpr* c, Scope* s) {
        auto cs = newScope(Scope::CompScope);
        cs->parent = s->kind == Scope::ClassScope ? s->parent : shareScope(s);
        cs->globals = s->globals ? s->globals : shareScope(s);
        Value result;
        if (c->kind == ExprKind::DictComp) result = makeDict();
        else if (c->kind == ExprKind::SetComp) result = Value(std::make_shared<SetObj>());
        else result = makeList();
        // The first iterable is evaluated in the enclosing scope, as in Python.
        Value first = eval(c->generators[0].iter.get(), s);
        // A generator expression runs lazily, on a coroutine, except while a trace records it
        // (the trace inlines it: its values are computed where it is written, in order)
        if (c->kind == ExprKind::GeneratorExp && !in.tracer) return lazyGenExp(c, cs, in.iter(first));
        struct LoopMark {
            TraceHooks* t;
            explicit LoopMark(TraceHooks* x) : t(x) { if (t) ++t->loopDepth; }
            ~LoopMark() { if (t) --t->loopDepth; }
        } mark(in.tracer);
        compLoop(c, 0, first, cs.get(), result);
        if (c->kind == ExprKind::GeneratorExp) {
            auto items = std::make_shared<std::vector<Value>>(std::move(result.as<ListObj>()->items));
            auto it = std::make_shared<IteratorObj>();
            it->typeName = "generator";
            auto pos = std::make_shared<size_t>(0);
            it->next = [items, pos](Value& out) {
                if (*pos >= items->size()) return false;
                out = (*items)[(*pos)++];
                return true;
            };
            return Value(it);
        }
        return result;
    }

    Value lazyGenExp(const CompExpr* c, const ScopeP& cs, const Value& firstIt) {
        auto st = newGenState("<genexpr>");
        st->scope = cs;
        st->module = currentModule; // keeps the expression's tree alive with the generator
        GenState* raw = st.get();
        st->co = std::make_unique<Coroutine>([this, c, raw, firstIt](Coroutine&) {
            // its own frame, as in Python: lines it runs are not the resumer's
            struct GenExpFrame {
                Interp& in;
                GenExpFrame(Interp& i, const Module* m, int line) : in(i) {
                    in.frames().push_back(Frame{"<genexpr>", m, line});
                    ++in.impl_->depth;
                }
                ~GenExpFrame() {
                    in.frames().pop_back();
                    --in.impl_->depth;
                }
            } frame(in, raw->module.get(), c->span.line);
            Value none;
            compLoop(c, 0, firstIt, raw->scope.get(), none, raw);
        });
        return generatorValue(std::move(st));
    }

    void compLoop(const CompExpr* c, size_t gi, const Value& iterable, Scope* cs, Value& result, GenState* sink = nullptr) {
        const Comprehension& g = c->generators[gi];
        Value it = in.iter(iterable);
        Value item;
        while (in.next(it, item)) {
            in.poll();
            assignComp(g.target.get(), item, cs);
            bool ok = true;
            for (auto& cond : g.ifs)
                if (!in.truthy(eval(cond.get(), cs))) { ok = false; break; }
            if (!ok) continue;
            if (gi + 1 < c->generators.size()) {
                compLoop(c, gi + 1, eval(c->generators[gi + 1].iter.get(), cs), cs, result, sink);
                continue;
            }
            if (sink) {
                yieldValue(*sink, eval(c->elt.get(), cs));
            } else if (c->kind == ExprKind::DictComp) {
                Value k = eval(c->key.get(), cs);
                dictSet(result.as<DictObj>(), k, eval(c->value.get(), cs));
            } else if (c->kind == ExprKind::SetComp) {
                setAdd(result.as<SetObj>(), eval(c->elt.get(), cs));
            } else {
                auto* l = result.as<ListObj>();
                l->items.push_back(eval(c->elt.get(), cs));
                if ((l->items.size() & 0xfffff) == 0) in.checkAlloc(int64_t(l->items.size()) * 32, "list");
            }
        }
    }

    // Comprehension targets are local to the comprehension scope.
    void assignComp(const Expr* t, const Value& v, Scope* cs) {
        if (t->kind == ExprKind::Name) { cs->vars[static_cast<const NameExpr*>(t)->id] = v; return; }
        assign(t, v, cs);
    }

    // ---------------- calls
    Value evalCall(const CallExpr* c, Scope* s) {
        Value fn;
        Value self = Value::missing();
        // obj.method(...) without allocating a bound method for plain instance methods.
        if (c->func->kind == ExprKind::Attribute) {
            auto* a = static_cast<const AttributeExpr*>(c->func.get());
            Value obj = eval(a->value.get(), s);
            if (obj.is(OK::Instance)) {
                auto* inst = obj.as<InstanceObj>();
                if (!inst->attrs.count(a->attr)) {
                    const Value* m = inst->cls->lookup(a->attr);
                    if (m && m->is(OK::Function)) { fn = *m; self = obj; }
                }
            }
            if (self.isMissing()) {
                fn = in.getAttr(obj, a->attr);
                if (in.tracer) in.tracer->onAttr(obj, a->attr, fn);
            }
        } else {
            fn = eval(c->func.get(), s);
        }
        CallArgs args;
        if (!self.isMissing()) args.pos.push_back(self);
        std::vector<std::pair<int, SymRef>> symPos;
        std::vector<std::pair<std::string, SymRef>> symKw;
        std::vector<const Expr*> symExprs;
        for (auto& a : c->args) {
            if (a->kind == ExprKind::Starred) {
                for (auto& v : in.toVector(eval(static_cast<const StarredExpr*>(a.get())->value.get(), s))) args.pos.push_back(v);
            } else if (in.tracer && isSymExpr(a.get(), s)) {
                SymRef t;
                Value v = evalSym(a.get(), s, t);
                symPos.emplace_back(int(args.pos.size()), t);
                symExprs.push_back(a.get());
                args.pos.push_back(v);
            } else {
                args.pos.push_back(eval(a.get(), s));
            }
        }
        for (auto& k : c->keywords) {
            if (in.tracer && !k.arg.empty() && isSymExpr(k.value.get(), s)) {
                SymRef t;
                Value v = evalSym(k.value.get(), s, t);
                symKw.emplace_back(k.arg, t);
                symExprs.push_back(k.value.get());
                args.kw.emplace_back(k.arg, v);
                continue;
            }
            Value v = eval(k.value.get(), s);
            if (k.arg.empty()) {
                v = mappingAsDict(v);
                if (!v.is(OK::Dict)) in.raiseType(calleeText(fn) + " argument after ** must be a mapping, not " + in.typeName(v));
                if (in.tracer) in.tracer->onSeqUse(v); // f(**d) reads every entry
                for (auto& en : v.as<DictObj>()->map.entries()) {
                    if (!en.live) continue;
                    if (!en.key.isStr()) in.raiseType("keywords must be strings");
                    for (auto& existing : args.kw)
                        if (existing.first == strOf(en.key)) in.raiseType("got multiple values for keyword argument '" + existing.first + "'");
                    args.kw.emplace_back(strOf(en.key), en.val);
                }
            } else {
                args.kw.emplace_back(k.arg, v);
            }
        }
        setLine(c->span.line);
        if (!in.tracer) return in.call(fn, args);
        auto* tr = in.tracer;
        tr->curExpr = c;
        if (!symExprs.empty()) {
            // symbolic scalar arguments: a traced op takes them as graph inputs; any other callee
            // sees plain numbers, so they specialise
            tr->pendingPos = std::move(symPos);
            tr->pendingKw = std::move(symKw);
            tr->pendingCall = &args;
            tr->pendingCount = args.pos.size();
            tr->pendingBinary = false;
        }
        auto settle = [&] {
            if (!symExprs.empty() && tr->pendingCall == &args) {
                tr->pendingCall = nullptr;
                tr->pendingPos.clear();
                tr->pendingKw.clear();
                for (auto* x : symExprs) specializeSyms(x, s);
            }
        };
        if (!tr->atRoot()) {
            Value r = in.call(fn, args);
            settle();
            return r;
        }
        tr->beforeRootCall(c);
        const CallExpr* saved = tr->rootCall;
        int savedOcc = tr->rootCallOcc;
        std::vector<int> savedPath = tr->rootCallPath;
        tr->rootCall = c;
        tr->rootCallOcc = tr->callOcc[c] - 1;
        tr->rootCallPath = tr->path;
        Value r = in.call(fn, args);
        settle();
        tr->rootCall = saved;
        tr->rootCallOcc = savedOcc;
        tr->rootCallPath = std::move(savedPath);
        return r;
    }

    // ---------------- compiled frames (the compile hooks drive these)
    // Pushes fn's interpreter frame (tracebacks, zero-argument super, recursion depth).
    struct FrameGuard {
        Evaluator& ev;
        std::shared_ptr<Module> saved;
        FrameGuard(Evaluator& e, FunctionObj* fn, Scope* sc) : ev(e) {
            auto& impl = *ev.in.impl_;
            if (impl.depth >= ev.in.options().recursionLimit || Coroutine::stackLeft() < kStackReserve / 2)
                ev.in.raise(ev.in.recursionError, "maximum recursion depth exceeded");
            Frame fr{fn->name, fn->ast.get(), fn->def ? fn->def->span.line : fn->lambda->span.line};
            if (auto owner = fn->owner.lock()) {
                fr.owner = owner.get();
                const Arguments& spec = fn->args();
                if (!spec.args.empty()) {
                    auto it = sc->vars.find(spec.args[0].name);
                    if (it != sc->vars.end()) fr.firstArg = it->second;
                }
            }
            ev.in.frames().push_back(std::move(fr));
            ++impl.depth;
            saved = ev.currentModule;
            ev.currentModule = fn->ast;
        }
        ~FrameGuard() {
            ev.in.frames().pop_back();
            --ev.in.impl_->depth;
            ev.currentModule = saved;
        }
    };

    // Runs `body` from `start` (a statement path; only the first statement uses it). Statements
    // at this level are the root frame's: the tracer tracks them, and loops, with and try blocks
    // are marked (a graph break inside them cannot be resumed).
    Flow execFrom(const Body& body, const std::vector<int>& start, size_t level, Scope* s, Value& ret) {
        static const std::vector<int> kNone;
        size_t i = level < start.size() ? size_t(start[level]) : 0;
        if (level + 1 < start.size()) {
            if (in.tracer) { in.tracer->path.resize(level + 1); in.tracer->path[level] = int(i); in.tracer->path.push_back(start[level + 1]); }
            Flow f = execFrom(*branchOf(body[i].get(), start[level + 1]), start, level + 2, s, ret);
            if (f != Flow::Normal) return f;
            ++i;
        }
        for (; i < body.size(); ++i) {
            const Stmt* st = body[i].get();
            TraceHooks* tr = in.tracer;
            if (tr) {
                tr->path.resize(level + 1);
                tr->path[level] = int(i);
                tr->beginStmt(st);
            }
            Flow f;
            if (st->kind == StmtKind::If) {
                auto* ifs = static_cast<const IfStmt*>(st);
                setLine(st->span.line);
                if (tr) tr->inIfTest = true;
                bool b = in.truthy(eval(ifs->test.get(), s));
                if (tr) { tr->inIfTest = false; tr->path.push_back(b ? 0 : 1); }
                f = execFrom(b ? ifs->body : ifs->orelse, kNone, level + 2, s, ret);
            } else if (st->kind == StmtKind::Match) {
                // like an if: a graph break in a case's body resumes inside it (path i, case, j)
                auto* m = static_cast<const MatchStmt*>(st);
                setLine(st->span.line);
                int k = matchCase(m, s);
                if (k >= 0 && tr) tr->path.push_back(k);
                f = k < 0 ? Flow::Normal : execFrom(m->cases[size_t(k)].body, kNone, level + 2, s, ret);
            } else if (tr && (st->kind == StmtKind::For || st->kind == StmtKind::While || st->kind == StmtKind::With || st->kind == StmtKind::Try)) {
                // A `for` statement's iterable is evaluated before the loop starts: a graph break
                // there is a break at the statement, which can be resumed, not one inside the loop.
                Value iterable;
                if (st->kind == StmtKind::For) {
                    setLine(st->span.line);
                    iterable = eval(static_cast<const ForStmt*>(st)->iter.get(), s);
                }
                struct LoopMark {
                    TraceHooks* t;
                    ~LoopMark() { --t->loopDepth; }
                } mark{tr};
                ++tr->loopDepth;
                f = st->kind == StmtKind::For ? execForLoop(static_cast<const ForStmt*>(st), iterable, s, ret) : exec(st, s, ret);
            } else {
                f = exec(st, s, ret);
            }
            if (f != Flow::Normal) return f;
        }
        return Flow::Normal;
    }

    // ---------------- generators (GenState above)
    // Stack a call needs to have left before it starts: a frame of the interpreter takes a few
    // kilobytes (more under ASan), and a generator's stack is Coroutine::kStackBytes.
    static constexpr size_t kStackReserve = size_t(96) << 10;

    std::shared_ptr<GenState> newGenState(std::string name) {
        auto st = std::make_shared<GenState>();
        st->in = &in;
        st->name = std::move(name);
        in.impl_->liveGens.insert(st.get());
        return st;
    }

    Value generatorValue(std::shared_ptr<GenState> st) {
        auto g = std::make_shared<GeneratorObj>();
        g->typeName = "generator";
        g->st = st;
        std::weak_ptr<GenState> weak = st; // the object owns its state, not the other way round
        Evaluator* self = this;
        GeneratorObj* obj = g.get();
        g->next = [self, weak, obj](Value& out) {
            obj->returned = Value(); // what the body returned is told once, by the call that ends it
            auto s = weak.lock();
            if (!s) return false;
            bool more = self->genStep(*s, nullptr, Value(), out);
            if (!more) obj->returned = std::exchange(s->returned, Value());
            return more;
        };
        return Value(g);
    }

    // Calling a generator function binds its arguments (errors come now, as in Python) and
    // returns the generator; the body starts at the first next().
    Value makeGenerator(FunctionObj* fn, CallArgs& a) {
        auto st = newGenState(fn->name);
        st->fn = Value(std::static_pointer_cast<FunctionObj>(fn->shared_from_this()));
        st->scope = callScope(fn, a);
        GenState* raw = st.get();
        st->co = std::make_unique<Coroutine>([this, raw](Coroutine&) {
            auto* f = raw->fn.as<FunctionObj>();
            try {
                FrameGuard guard(*this, f, raw->scope.get());
                Value ret;
                if (execBody(f->def->body, raw->scope.get(), ret) == Flow::Return) raw->returned = ret;
            } catch (PyException& e) {
                // PEP 479: a StopIteration leaving the body would end the caller's loop silently
                if (!in.isInstance(e.exc, in.stopIteration.get())) throw;
                Value err = in.makeException(in.runtimeError, "generator raised StopIteration");
                if (err.is(OK::Instance)) err.as<InstanceObj>()->attrs["__cause__"] = e.exc;
                throw PyException{err, e.traceback};
            }
        });
        return generatorValue(std::move(st));
    }

    // Resumes g: sends `send` (next() sends None), or raises *exc at its yield point. True with
    // the next value in `out`; false when the body finished (g.returned holds what it returned).
    // What the body raises comes out of here.
    bool genStep(GenState& g, const PyException* exc, const Value& send, Value& out) {
        if (g.co && g.co->running()) in.raiseValue("generator already executing");
        if (g.done || !g.co || g.co->finished()) {
            g.done = true;
            if (exc) throw *exc;
            return false;
        }
        if (!g.co->started()) {
            if (exc) { // thrown into a generator that never ran: it ends without running
                g.done = true;
                throw *exc;
            }
            if (!send.isNone()) in.raiseType("can't send non-None value to a just-started generator");
        }
        if (in.tracer) maybeBreak(in, "generator", g.name);
        auto keep = g.shared_from_this();
        if (exc) g.thrown = *exc;
        g.transfer = send;
        auto& impl = *in.impl_;
        auto& fr = in.frames();
        const size_t base = fr.size(), handlingBase = impl.handling.size();
        const int depthBase = impl.depth;
        fr.insert(fr.end(), g.frames.begin(), g.frames.end());
        g.frames.clear();
        impl.depth += g.depth;
        impl.handling.insert(impl.handling.end(), g.handling.begin(), g.handling.end());
        g.handling.clear();
        std::shared_ptr<Module> savedModule = currentModule;
        if (g.module) currentModule = g.module;
        const auto* savedSubst = subst;
        int savedSubstDepth = substDepth;
        subst = nullptr;
        substDepth = -1;
        impl.running.push_back(&g);
        auto restore = [&] {
            impl.running.pop_back();
            subst = savedSubst;
            substDepth = savedSubstDepth;
            g.module = currentModule;
            currentModule = savedModule;
            g.frames.assign(fr.begin() + std::ptrdiff_t(std::min(base, fr.size())), fr.end());
            fr.resize(std::min(base, fr.size()));
            g.depth = impl.depth - depthBase;
            impl.depth = depthBase;
            g.handling.assign(impl.handling.begin() + std::ptrdiff_t(std::min(handlingBase, impl.handling.size())), impl.handling.end());
            impl.handling.resize(std::min(handlingBase, impl.handling.size()));
        };
        bool yielded;
        try {
            yielded = g.co->resume();
        } catch (...) {
            restore();
            g.done = true;
            g.thrown.reset();
            throw;
        }
        restore();
        g.thrown.reset();
        if (!yielded) {
            g.done = true;
            return false;
        }
        out = std::move(g.transfer);
        g.transfer = Value();
        return true;
    }

    // Inside g's body: hands v to the resumer; returns what the next send() passes in.
    Value yieldValue(GenState& g, const Value& v) {
        g.transfer = v;
        g.co->suspend(); // throws Coroutine::Kill when the generator is destroyed at teardown
        if (g.thrown) {
            PyException e = std::move(*g.thrown);
            g.thrown.reset();
            throw e;
        }
        Value sent = std::move(g.transfer);
        g.transfer = Value();
        return sent;
    }

    static GenState* genOf(const Value& v) {
        if (!v.is(OK::Iterator)) return nullptr;
        auto* g = dynamic_cast<GeneratorObj*>(v.as<IteratorObj>());
        return g ? g->st.get() : nullptr;
    }

    // `yield from it`: a generator gets what is sent and thrown in; any other iterator is
    // iterated. The value is what the sub-generator returned.
    Value yieldFrom(GenState& g, const Value& iterable) {
        Value it = in.iter(iterable);
        GenState* sub = genOf(it);
        if (!sub) {
            Value item;
            while (in.next(it, item)) yieldValue(g, item);
            return Value();
        }
        auto keepSub = sub->shared_from_this();
        Value send, out;
        std::optional<PyException> pending;
        for (;;) {
            bool more = pending ? genStep(*sub, &*pending, Value(), out) : genStep(*sub, nullptr, send, out);
            pending.reset();
            if (!more) return sub->returned;
            g.transfer = out;
            g.co->suspend();
            if (g.thrown) {
                PyException e = std::move(*g.thrown);
                g.thrown.reset();
                if (in.isInstance(e.exc, in.generatorExit.get())) {
                    genClose(*sub);
                    throw e;
                }
                pending = std::move(e);
                continue;
            }
            send = std::move(g.transfer);
            g.transfer = Value();
        }
    }

    // gen.close(): GeneratorExit at the yield point; a generator that yields again is an error.
    void genClose(GenState& g) {
        if (g.done || !g.co || !g.co->started() || g.co->finished()) {
            g.done = true;
            return;
        }
        PyException exit{in.makeException(in.generatorExit, ""), snapshot()};
        Value out;
        bool yielded;
        try {
            yielded = genStep(g, &exit, Value(), out);
        } catch (PyException& e) {
            if (in.isInstance(e.exc, in.generatorExit.get()) || in.isInstance(e.exc, in.stopIteration.get())) return;
            throw;
        }
        if (yielded) in.raise(in.runtimeError, "generator ignored GeneratorExit");
    }

    // Generators dropped while suspended, closed now (Python closes them when they are freed).
    void closePending() {
        auto pending = std::move(in.impl_->pendingClose);
        in.impl_->pendingClose.clear();
        for (auto& g : pending) {
            try {
                genClose(*g);
            } catch (PyException& e) {
                in.options().err("Exception ignored in: <generator object " + g->name + ">\n" + in.formatException(e));
            }
        }
    }

    static bool isUserCode(const FunctionObj* fn) {
        return fn->ast && fn->ast->filename.rfind("<fuselab:", 0) != 0;
    }

    Value callFunction(FunctionObj* fn, CallArgs& a) {
        if (Coroutine::onCoroutineStack() && Coroutine::stackLeft() < kStackReserve) {
            // deep inside a generator: the call goes on on a fresh stack segment
            Value r;
            Coroutine::onNewStack([&] { r = callFunction(fn, a); });
            return r;
        }
        in.poll();
        if (fn->def && fn->def->isGenerator) return makeGenerator(fn, a);
        if (in.compileHooks && !in.tracer && in.compileHooks->intercepting() && fn->def && isUserCode(fn))
            return in.compileHooks->callAsFrame(fn, a);
        if (in.impl_->depth >= in.options().recursionLimit) in.raise(in.recursionError, "maximum recursion depth exceeded");
        ScopeP sc = callScope(fn, a);
        FrameGuard guard(*this, fn, sc.get());
        if (fn->lambda) return eval(fn->lambda->body.get(), sc.get());
        Value ret;
        Flow f = execBody(fn->def->body, sc.get(), ret);
        return f == Flow::Return ? ret : Value();
    }

    // A fresh scope for a call of fn with its arguments bound.
    ScopeP callScope(FunctionObj* fn, CallArgs& a) {
        const Arguments& spec = fn->args();
        const Body* body = fn->def ? &fn->def->body : nullptr;
        const void* key = fn->def ? static_cast<const void*>(fn->def) : static_cast<const void*>(fn->lambda);
        ScopeP sc = newScope(Scope::FunctionScope);
        sc->info = infoFor(key, body, &spec);
        if (sc->info->qualname.empty()) sc->info->qualname = fn->qualname;
        sc->parent = fn->closure;
        sc->globals = fn->globals;
        bindArgs(fn, a, sc->vars);
        return sc;
    }

    void bindArgs(FunctionObj* fn, CallArgs& a, std::unordered_map<std::string, Value>& vars) {
        const Arguments& spec = fn->args();
        const std::string& fname = fn->qualname.empty() ? fn->name : fn->qualname; // as CPython 3.11 names it
        size_t np = spec.args.size();
        size_t npos = a.pos.size();
        for (size_t i = 0; i < std::min(np, npos); ++i) vars[spec.args[i].name] = a.pos[i];
        if (spec.vararg) {
            std::vector<Value> extra;
            for (size_t i = np; i < npos; ++i) extra.push_back(a.pos[i]);
            vars[spec.vararg->name] = makeTuple(std::move(extra));
        }
        // keywords first, then the count of positionals: CPython's order of complaints
        std::shared_ptr<DictObj> kwargs;
        if (spec.kwarg) kwargs = std::make_shared<DictObj>();
        for (auto& [k, v] : a.kw) {
            bool found = false;
            for (size_t i = spec.posonly; i < np; ++i) { // a positional-only name is no keyword
                if (spec.args[i].name != k) continue;
                if (i < npos) in.raiseType(fname + "() got multiple values for argument '" + k + "'");
                vars[k] = v;
                found = true;
                break;
            }
            if (!found)
                for (auto& kw : spec.kwonly)
                    if (kw.name == k) { vars[k] = v; found = true; break; }
            if (found) continue;
            if (kwargs) {
                kwargs->map.set(makeStr(k), v);
                continue;
            }
            std::vector<std::string> posonly;
            for (size_t i = 0; i < spec.posonly; ++i)
                for (auto& kv : a.kw)
                    if (kv.first == spec.args[i].name) posonly.push_back(kv.first);
            if (!posonly.empty()) {
                std::string names;
                for (auto& n : posonly) names += (names.empty() ? "" : ", ") + n;
                in.raiseType(fname + "() got some positional-only arguments passed as keyword arguments: '" + names + "'");
            }
            in.raiseType(fname + "() got an unexpected keyword argument '" + k + "'");
        }
        if (npos > np && !spec.vararg) {
            size_t required = np - fn->defaults.size();
            std::string takes = fn->defaults.empty() ? std::to_string(np) : "from " + std::to_string(required) + " to " + std::to_string(np);
            in.raiseType(fname + "() takes " + takes + " positional argument" + (np == 1 && fn->defaults.empty() ? "" : "s") + " but " +
                         std::to_string(npos) + (npos == 1 ? " was" : " were") + " given");
        }
        std::vector<std::string> missing;
        size_t firstDefault = np - fn->defaults.size();
        for (size_t i = 0; i < np; ++i) {
            const std::string& n = spec.args[i].name;
            if (vars.count(n)) continue;
            if (i >= firstDefault) vars[n] = fn->defaults[i - firstDefault];
            else missing.push_back(n);
        }
        if (!missing.empty()) in.raiseType(fname + "() missing " + std::to_string(missing.size()) + " required positional argument" + (missing.size() > 1 ? "s" : "") + ": " + joinNames(missing));
        for (size_t i = 0; i < spec.kwonly.size(); ++i) {
            const std::string& n = spec.kwonly[i].name;
            if (vars.count(n)) continue;
            if (!fn->kwDefaults[i].isMissing()) vars[n] = fn->kwDefaults[i];
            else missing.push_back(n);
        }
        if (!missing.empty()) in.raiseType(fname + "() missing " + std::to_string(missing.size()) + " required keyword-only argument" + (missing.size() > 1 ? "s" : "") + ": " + joinNames(missing));
        if (kwargs) vars[spec.kwarg->name] = Value(kwargs);
    }

    static std::string joinNames(const std::vector<std::string>& n) {
        std::string out;
        for (size_t i = 0; i < n.size(); ++i) {
            if (i) out += (i + 1 == n.size()) ? (n.size() > 2 ? ", and " : " and ") : ", ";
            out += "'" + n[i] + "'";
        }
        return out;
    }

    std::shared_ptr<Module> currentModule;
};

GenState::~GenState() {
    if (in) {
        in->impl_->liveGens.erase(this);
        if (co && co->started() && !co->finished() && !co->running()) {
            // at teardown: unwind its C++ stack (destructors only, no Python code)
            Evaluator& ev = in->ev();
            std::shared_ptr<Module> savedModule = ev.currentModule;
            auto& fr = in->frames();
            auto& handling = in->impl_->handling;
            const size_t base = fr.size(), handlingBase = handling.size();
            fr.insert(fr.end(), frames.begin(), frames.end());
            handling.insert(handling.end(), this->handling.begin(), this->handling.end());
            in->impl_->depth += depth;
            co.reset(); // ~Coroutine resumes it with Kill: the guards on its stack pop these
            in->impl_->depth -= depth;
            fr.resize(std::min(fr.size(), base));
            handling.resize(std::min(handling.size(), handlingBase));
            ev.currentModule = savedModule;
        }
    } else if (co) {
        co->abandon();
    }
}

// ---------------------------------------------------------------- Interp
Interp::Interp(RunOptions opts) : impl_(std::make_unique<Impl>()), opts_(std::move(opts)) {
    if (!opts_.out) opts_.out = [](const std::string& s) { std::cout << s; };
    if (!opts_.flush) opts_.flush = [] { std::cout.flush(); };
    if (!opts_.err) opts_.err = [](const std::string& s) { std::cerr << s; };
    impl_->ellipsis = Value(std::make_shared<EllipsisObj>());
    evaluator_ = std::make_unique<Evaluator>(*this);
    installBuiltins(*this);
    setBuiltin("Ellipsis", impl_->ellipsis);
    impl_->outerKeyInterp = keyInterp();
    setKeyInterp(this); // dict keys and set members with a script __hash__ / __eq__ run them here
    installTypeMethods();
    installGeneratorMethods();
    installTorch(*this);
}

// What a script metaclass inherits from type: __new__ (a class from a namespace), __call__ (an
// instance: __new__ then __init__), __init__; and type(name, bases, ns).
void Interp::installTypeMethods() {
    addMethod(typeCls, "__new__", [](Interp& in, const Value&, CallArgs& a) { return in.ev().typeNew(a); });
    addMethod(typeCls, "__call__", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.empty() || !a.pos[0].is(OK::Class)) in.raiseType("descriptor '__call__' requires a 'type' object");
        Value cls = a.pos[0];
        a.pos.erase(a.pos.begin());
        return in.instantiate(cls, a);
    });
    addMethod(typeCls, "__init__", [](Interp&, const Value&, CallArgs&) { return Value(); });
    addMethod(typeCls, "__setattr__", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 3 || !a.pos[0].is(OK::Class) || !a.pos[1].isStr()) in.raiseType("type.__setattr__(cls, name, value)");
        in.setClassAttr(a.pos[0], strOf(a.pos[1]), a.pos[2]);
        return Value();
    });
    typeCls->ctor = [](Interp& in, CallArgs& a) {
        if (a.pos.size() == 3) {
            a.pos.insert(a.pos.begin(), Value(in.typeCls));
            return in.ev().typeNew(a);
        }
        if (a.pos.size() != 1 || !a.kw.empty()) in.raiseType("type() takes 1 or 3 arguments");
        return Value(in.typeOf(a.pos[0])->shared_from_this());
    };
}

// gen.send(v), gen.throw(exc), gen.close(), and the iterator protocol's names.
void Interp::installGeneratorMethods() {
    generatorCls = makeClass("generator", objectCls);
    generatorCls->final_ = true;
    auto& m = methodsOf(OK::Iterator);
    auto genOf = [](Interp& in, const Value& self, const char* name) -> GenState* {
        GenState* g = Evaluator::genOf(self);
        if (!g) in.raise(in.attributeError, "'" + in.typeName(self) + "' object has no attribute '" + name + "'");
        return g;
    };
    auto step = [](Interp& in, GenState& g, const PyException* exc, const Value& send, const Value& self) {
        Value out;
        self.as<IteratorObj>()->returned = Value();
        if (in.ev().genStep(g, exc, send, out)) return out;
        in.raiseStopIteration(std::exchange(g.returned, Value()));
    };
    m["__iter__"] = [](Interp&, const Value& self, CallArgs&) { return self; };
    m["__next__"] = [](Interp& in, const Value& self, CallArgs&) {
        Value out;
        if (in.next(self, out)) return out;
        in.raiseStopIteration(std::exchange(self.as<IteratorObj>()->returned, Value()));
    };
    m["send"] = [genOf, step](Interp& in, const Value& self, CallArgs& a) {
        GenState* g = genOf(in, self, "send");
        if (a.pos.size() != 1 || !a.kw.empty()) in.raiseType("generator.send() takes exactly one argument (" + std::to_string(a.pos.size()) + " given)");
        return step(in, *g, nullptr, a.pos[0], self);
    };
    m["throw"] = [genOf, step](Interp& in, const Value& self, CallArgs& a) {
        GenState* g = genOf(in, self, "throw");
        if (a.pos.empty() || a.pos.size() > 3) in.raiseType("throw expected at least 1 argument, got " + std::to_string(a.pos.size()));
        Value exc = a.pos[0];
        if (exc.is(OK::Class)) {
            if (!exc.as<ClassObj>()->isSubclassOf(in.baseExc.get()))
                in.raiseType("exceptions must be classes or instances deriving from BaseException, not type");
            exc = a.pos.size() >= 2 && !a.pos[1].isNone() ? (in.isInstance(a.pos[1], exc.as<ClassObj>()) ? a.pos[1] : in.call(exc, std::vector<Value>{a.pos[1]}))
                                                          : in.call(exc, std::vector<Value>{});
        } else if (!in.isInstance(exc, in.baseExc.get())) {
            in.raiseType("exceptions must be classes or instances deriving from BaseException, not " + in.typeName(exc));
        }
        PyException e{exc, in.ev().snapshot()};
        return step(in, *g, &e, Value(), self);
    };
    m["close"] = [genOf](Interp& in, const Value& self, CallArgs&) {
        in.ev().genClose(*genOf(in, self, "close"));
        return Value();
    };
}

Interp::~Interp() {
    if (keyInterp() == this) setKeyInterp(impl_->outerKeyInterp);
    impl_->tearingDown = true; // suspended generators freed from here on are unwound, not closed
    if (opts_.cancel && opts_.cancel->cancelled()) {
        // A cancelled run (a timeout, the window's stop) ends now: its suspended generators are
        // abandoned, not unwound. Unwinding costs a C++ exception through each one's frames
        // (20,000 of them took 2 s here, and past libFuzzer's 10 s under UBSan); what their stacks
        // hold is not freed.
        for (GenState* g : impl_->liveGens) g->in = nullptr;
        impl_->liveGens.clear();
    }
    impl_->pendingClose.clear();
    compileHooks.reset(); // compiled entries hold values of this run
    // A module's functions hold its scope and the scope holds the functions: break those cycles so
    // a finished run frees its globals (tensors included), which matters when the window runs
    // scripts again and again.
    for (auto& w : impl_->moduleScopes)
        if (auto sc = w.lock()) {
            auto vars = std::move(sc->vars);
            sc->vars.clear();
            vars.clear();
        }
    impl_->modules.clear();
    impl_->builtins.clear();
    impl_->classes.clear();
    registry.clear();
    // generators still alive (in reference cycles) outlive this interpreter: their bodies are
    // abandoned, never resumed
    for (GenState* g : impl_->liveGens) g->in = nullptr;
    impl_->liveGens.clear();
}

Evaluator& Interp::ev() { return *evaluator_; }

std::vector<std::string> Interp::importedFiles() const {
    std::vector<std::string> out;
    for (auto& m : impl_->importedAsts) out.push_back(m->filename);
    return out;
}

Value traceOp(Interp& in, const std::string& target, CallArgs& ca, const OpInvoke& run) {
    return in.tracer ? in.tracer->op(target, ca, run) : run(in, ca);
}

void maybeBreak(Interp& in, const std::string& id, const std::string& detail) {
    if (in.tracer) in.tracer->maybeBreak(id, detail);
}

int Interp::callDepth() const { return impl_->depth; }

ScopeP Interp::bindCall(FunctionObj* fn, CallArgs& a) { return ev().callScope(fn, a); }

Value Interp::execFunctionFrom(FunctionObj* fn, const ScopeP& scope, const std::vector<int>& path) {
    Evaluator::FrameGuard guard(ev(), fn, scope.get());
    if (tracer) tracer->rootDepth = impl_->depth;
    if (fn->lambda) return ev().eval(fn->lambda->body.get(), scope.get());
    Value ret;
    Flow f = ev().execFrom(fn->def->body, path, 0, scope.get(), ret);
    return f == Flow::Return ? ret : Value();
}

// Inside fn's frame, with completed sub-expressions of the current statement substituted.
struct SubstFrame {
    Evaluator::FrameGuard guard;
    Evaluator& e;
    const std::vector<std::pair<const Expr*, Value>>* savedSubst;
    int savedDepth;
    SubstFrame(Interp& in, Evaluator& ev, FunctionObj* fn, Scope* sc, const std::vector<std::pair<const Expr*, Value>>& subst)
        : guard(ev, fn, sc), e(ev), savedSubst(ev.subst), savedDepth(ev.substDepth) {
        e.subst = &subst;
        e.substDepth = in.callDepth();
    }
    ~SubstFrame() {
        e.subst = savedSubst;
        e.substDepth = savedDepth;
    }
};

bool Interp::execStmtSubst(FunctionObj* fn, const ScopeP& scope, const std::vector<int>& path,
                           const std::vector<std::pair<const Expr*, Value>>& subst, Value& ret) {
    SubstFrame frame(*this, ev(), fn, scope.get(), subst);
    Flow f = ev().exec(stmtAt(fn->def->body, path), scope.get(), ret);
    return f == Flow::Return;
}

bool Interp::evalIfTestSubst(FunctionObj* fn, const ScopeP& scope, const std::vector<int>& path,
                             const std::vector<std::pair<const Expr*, Value>>& subst) {
    SubstFrame frame(*this, ev(), fn, scope.get(), subst);
    auto& e = ev();
    auto* ifs = static_cast<const IfStmt*>(stmtAt(fn->def->body, path));
    e.setLine(ifs->span.line);
    return truthy(e.eval(ifs->test.get(), scope.get()));
}

Value Interp::evalLambdaSubst(FunctionObj* fn, const ScopeP& scope, const std::vector<std::pair<const Expr*, Value>>& subst) {
    SubstFrame frame(*this, ev(), fn, scope.get(), subst);
    return ev().eval(fn->lambda->body.get(), scope.get());
}

static const Body* blockAt(const Body& body, const std::vector<int>& p) {
    const Body* blk = &body;
    for (size_t k = 0; k + 1 < p.size(); k += 2) blk = branchOf((*blk)[p[k]].get(), p[k + 1]);
    return blk;
}

const Stmt* Interp::stmtAt(const Body& body, const std::vector<int>& path) { return (*blockAt(body, path))[path.back()].get(); }

std::vector<int> Interp::nextPath(const Body& body, std::vector<int> p) {
    while (!p.empty()) {
        const Body* blk = blockAt(body, p);
        if (++p.back() < int(blk->size())) return p;
        if (p.size() == 1) return {};
        p.pop_back();
        p.pop_back();
    }
    return p;
}

void Interp::poll() {
    if (opts_.cancel && opts_.cancel->cancelled()) throw Cancelled{};
    // generators dropped while suspended are closed here, never inside a trace
    if (!impl_->pendingClose.empty() && !tracer) ev().closePending();
}

ScopeP Interp::runModule(const std::shared_ptr<Module>& mod, const std::string& name,
                         const std::vector<std::pair<std::string, Value>>& preset) {
    Evaluator& e = ev();
    ScopeP g = e.newScope(Scope::ModuleScope);
    impl_->moduleScopes.push_back(g);
    g->vars["__name__"] = makeStr(name);
    for (auto& [k, v] : preset) g->vars[k] = v;
    auto saved = e.currentModule;
    e.currentModule = mod;
    frames_.push_back(Frame{"<module>", mod.get(), 1});
    struct Pop { Interp& in; Evaluator& e; std::shared_ptr<Module> m; ~Pop() { in.frames().pop_back(); e.currentModule = m; } } pop{*this, e, saved};
    Value ret;
    e.execBody(mod->body, g.get(), ret);
    return g;
}

void Interp::runMain(const std::shared_ptr<Module>& mod) {
    // long big-int arithmetic checks for cancellation (only that: no script code runs inside it)
    BigInt::setPoll([](void* arg) {
        const CancelToken* c = static_cast<Interp*>(arg)->options().cancel;
        if (c && c->cancelled()) throw Cancelled{};
    }, this);
    // a run on another thread than the one that made the interpreter: keys hash through it there
    Interp* outerKeys = keyInterp();
    setKeyInterp(this);
    struct Reset {
        Interp* outerKeys;
        ~Reset() {
            BigInt::setPoll(nullptr, nullptr);
            setKeyInterp(outerKeys);
        }
    } reset{outerKeys};
    runModule(mod, "__main__", {{"__file__", makeStr(mod->filename)}});
}

Value Interp::makeBuiltin(const std::string& name, NativeFn fn) {
    auto b = std::make_shared<BuiltinObj>();
    b->name = name;
    b->fn = std::move(fn);
    b->self = Value::missing();
    return Value(b);
}

ClassP Interp::makeClass(const std::string& name, const ClassP& base, const std::string& module) {
    auto c = std::make_shared<ClassObj>();
    c->name = name;
    c->base = base;
    c->module = module;
    c->isBuiltinType = true;
    impl_->classes[name] = c;
    return c;
}

void Interp::addMethod(const ClassP& cls, const std::string& name, NativeFn fn) { cls->attrs[name] = makeBuiltin(name, std::move(fn)); }

ClassP Interp::builtinClass(const std::string& name) const {
    auto it = impl_->classes.find(name);
    return it == impl_->classes.end() ? runtimeError : it->second;
}

void Interp::setBuiltin(const std::string& name, const Value& v) { impl_->builtins[name] = v; }

void Interp::registerModule(const std::string& dottedName, const Value& module) { impl_->modules[dottedName] = module; }
Value Interp::findModule(const std::string& dottedName) const {
    auto it = impl_->modules.find(dottedName);
    return it == impl_->modules.end() ? Value() : it->second;
}

Value Interp::newModule(const std::string& name) {
    auto m = std::make_shared<ModuleObj>();
    m->name = name;
    m->ns = ev().newScope(Scope::ModuleScope);
    impl_->moduleScopes.push_back(m->ns);
    m->ns->vars["__name__"] = makeStr(name);
    return Value(m);
}

void Interp::setAttrHook(OK kind, AttrHook hook) { attrHooks_[int(kind)] = std::move(hook); }

void Interp::checkAlloc(int64_t bytes, const char* what) {
    if (bytes < 0 || bytes > opts_.maxAllocBytes) raise(memoryError, std::string(what) + " of " + std::to_string(bytes) + " bytes is over the model-script limit of " + std::to_string(opts_.maxAllocBytes) + " bytes");
}

Value Interp::makeException(const ClassP& type, const std::string& msg) {
    auto inst = std::make_shared<InstanceObj>();
    inst->cls = type;
    inst->attrs["args"] = msg.empty() ? makeTuple() : makeTuple({makeStr(msg)});
    if (stopIteration && type->isSubclassOf(stopIteration.get())) inst->attrs["value"] = msg.empty() ? Value() : makeStr(msg);
    return Value(inst);
}

void Interp::raiseStopIteration(const Value& returned) {
    if (returned.isNone()) raiseExc(makeException(stopIteration, ""));
    raiseExc(call(Value(stopIteration), std::vector<Value>{returned}));
}

void Interp::raise(const ClassP& type, const std::string& msg) { throw ev().makePy(makeException(type, msg)); }
void Interp::raiseExc(const Value& exc) { throw ev().makePy(exc); }
void Interp::raiseType(const std::string& msg) { raise(typeError, msg); }
void Interp::raiseValue(const std::string& msg) { raise(valueError, msg); }

std::string Interp::exceptionMessage(const Value& exc) {
    Value args;
    if (!exc.is(OK::Instance)) return str(exc);
    auto* inst = exc.as<InstanceObj>();
    const Value* userStr = inst->cls->lookup("__str__");
    if (userStr && userStr->is(OK::Function)) return str(exc);
    auto it = inst->attrs.find("args");
    if (it == inst->attrs.end() || !it->second.is(OK::Tuple)) return "";
    auto& items = it->second.as<TupleObj>()->items;
    if (items.empty()) return "";
    if (items.size() == 1) {
        if (inst->cls->isSubclassOf(keyError.get())) return repr(items[0]);
        return str(items[0]);
    }
    return repr(it->second);
}

std::string Interp::formatException(const PyException& e) {
    std::string out;
    if (!e.traceback.empty()) {
        out += "Traceback (most recent call last):\n";
        for (auto& t : e.traceback) {
            if (t.file.rfind("<fuselab:", 0) == 0) continue; // the bundled prelude is not the user's code
            out += "  File \"" + t.file + "\", line " + std::to_string(t.line) + ", in " + t.function + "\n";
            if (!t.sourceLine.empty()) out += "    " + t.sourceLine + "\n";
        }
    }
    ClassObj* cls = typeOf(e.exc);
    std::string msg = exceptionMessage(e.exc);
    // like CPython: classes outside builtins and __main__ print with their module
    if (cls->module != "builtins" && cls->module != "__main__" && !cls->module.empty()) out += cls->module + ".";
    out += cls->name;
    if (!msg.empty()) out += ": " + msg;
    out += "\n";
    return out;
}

// ---------------------------------------------------------------- object protocol
ClassObj* Interp::typeOf(const Value& v) {
    switch (v.type()) {
    case Value::T::None:
    case Value::T::Missing: return noneCls.get();
    case Value::T::Bool: return boolCls.get();
    case Value::T::Int: return intCls.get();
    case Value::T::Float: return floatCls.get();
    case Value::T::Obj: break;
    }
    switch (v.obj()->kind) {
    case OK::Str: return strCls.get();
    case OK::List: return listCls.get();
    case OK::Tuple: return v.as<TupleObj>()->isSize ? sizeCls.get() : tupleCls.get();
    case OK::Dict: return v.as<DictObj>()->orderedRepr && orderedDictCls ? orderedDictCls.get() : dictCls.get();
    case OK::Set: return setCls.get();
    case OK::Function: return functionCls.get();
    case OK::Builtin:
    case OK::BoundMethod: return builtinFnCls.get();
    case OK::Class: return v.as<ClassObj>()->meta ? v.as<ClassObj>()->meta.get() : typeCls.get();
    case OK::Instance: return v.as<InstanceObj>()->cls.get();
    case OK::Module: return moduleCls.get();
    case OK::Tensor: return tensorIsParameter(v) ? parameterCls.get() : tensorCls.get();
    case OK::Dtype: return dtypeCls.get();
    case OK::Device: return deviceCls.get();
    case OK::Slice: return sliceCls.get();
    case OK::Range: return rangeCls.get();
    case OK::Iterator: return dynamic_cast<const GeneratorObj*>(v.obj()) ? generatorCls.get() : iteratorCls.get();
    case OK::Ellipsis: return ellipsisCls.get();
    case OK::Opaque: return v.as<OpaqueObj>()->cls.get();
    case OK::BigInt: return intCls.get();
    }
    return objectCls.get();
}

std::string Interp::typeName(const Value& v) {
    if (v.is(OK::Iterator)) return v.as<IteratorObj>()->typeName;
    if (v.is(OK::Builtin)) return v.as<BuiltinObj>()->self.isMissing() ? "builtin_function_or_method" : "method";
    if (v.is(OK::BoundMethod)) return "method";
    return typeOf(v)->name;
}

bool Interp::isInstance(const Value& v, const ClassObj* cls) {
    if (cls == objectCls.get()) return true;
    if (cls == intCls.get() && v.isBool()) return true;
    if (cls == tupleCls.get() && v.is(OK::Tuple)) return true;
    if (cls == tensorCls.get() && v.isTensor()) return true;
    if (cls->tensorDtype >= 0) return v.isTensor() && tensorDtypeOf(v) == cls->tensorDtype; // isinstance(x, torch.FloatTensor)
    return typeOf(v)->isSubclassOf(cls);
}

Value Interp::call(const Value& f, CallArgs& args) {
    if (!f.isObj()) raiseType("'" + typeName(f) + "' object is not callable");
    switch (f.obj()->kind) {
    case OK::Function: return ev().callFunction(f.as<FunctionObj>(), args);
    case OK::Builtin: {
        auto* b = f.as<BuiltinObj>();
        if (tracer && (b->self.is(OK::List) || b->self.is(OK::Dict) || b->self.is(OK::Set))) {
            static const std::unordered_set<std::string> mutating = {"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",
                                                                     "update", "setdefault", "popitem", "add", "discard", "__setitem__", "__delitem__"};
            if (mutating.count(b->name)) tracer->onMutate(b->self);
        }
        try {
            return b->fn(*this, b->self, args);
        } catch (UnhashableError& u) { // a key of a native method's dict or set (d.setdefault([]))
            raiseType("unhashable type: '" + u.typeName + "'");
        }
    }
    case OK::BoundMethod: {
        auto* bm = f.as<BoundMethodObj>();
        return callWithSelf(bm->func, bm->self, args);
    }
    case OK::Class: {
        auto* cls = f.as<ClassObj>();
        if (cls->ctor) return cls->ctor(*this, args);
        if (const Value* mc = metaMethod(f, "__call__")) return callWithSelf(*mc, f, args); // the metaclass's __call__ makes the instance
        if (cls->isSubclassOf(typeCls.get())) { // a metaclass called: M(name, bases, ns) makes a class
            if (args.pos.size() != 3 || !args.pos[0].isStr() || !args.pos[1].is(OK::Tuple) || !args.pos[2].is(OK::Dict))
                raiseType(cls->name + "() expects (name: str, bases: tuple, namespace: dict) in model scripts");
            CallArgs kw;
            kw.kw = std::move(args.kw);
            return ev().classViaMeta(std::static_pointer_cast<ClassObj>(f.objp()), strOf(args.pos[0]), args.pos[1], args.pos[2], std::move(kw), nullptr);
        }
        return instantiate(f, args);
    }
    case OK::Instance: {
        auto* inst = f.as<InstanceObj>();
        const Value* c = inst->cls->lookup("__call__");
        if (!c) raiseType("'" + typeName(f) + "' object is not callable");
        return callWithSelf(*c, f, args);
    }
    case OK::Opaque: {
        auto* o = f.as<OpaqueObj>();
        const Value* c = o->cls ? o->cls->lookup("__call__") : nullptr;
        if (!c) break;
        return callWithSelf(*c, f, args);
    }
    default: break;
    }
    raiseType("'" + typeName(f) + "' object is not callable");
}

// Calls `fn` with `self` before the arguments (a bound method, a __call__ found on a class).
Value Interp::callWithSelf(const Value& fn, const Value& self, CallArgs& args) {
    args.pos.insert(args.pos.begin(), self);
    return call(fn, args);
}

// A metaclass's own method `name` (a script function) for the class `o`; null for a class
// without a script metaclass, and for what type itself does.
const Value* Interp::metaMethod(const Value& o, const char* name) const {
    if (!o.is(OK::Class)) return nullptr;
    const ClassObj* meta = o.as<ClassObj>()->meta.get();
    if (!meta) return nullptr;
    const Value* m = meta->lookup(name);
    return m && m->is(OK::Function) ? m : nullptr;
}

// Calling a class: __new__ (the class's own, if any) makes the object, __init__ sets it up.
Value Interp::instantiate(const Value& f, CallArgs& args) {
    {
        auto* cls = f.as<ClassObj>();
        // Builtin base with a constructor (exceptions): walk to it for instance creation.
        auto inst = std::make_shared<InstanceObj>();
        inst->cls = std::static_pointer_cast<ClassObj>(f.objp());
        Value self(inst);
        if (const Value* nw = cls->lookup("__new__"); nw && nw->is(OK::Function)) {
            // a class's own __new__ (abc.ABC refuses abstract classes there): it makes the object;
            // __init__ runs when that is an instance of the class
            CallArgs na;
            na.pos.reserve(args.pos.size() + 1);
            na.pos.push_back(f);
            for (auto& p : args.pos) na.pos.push_back(p);
            na.kw = args.kw;
            Value made = call(*nw, na);
            if (!made.is(OK::Instance) || !made.as<InstanceObj>()->cls->isSubclassOf(cls)) return made;
            self = made;
        }
        if (cls->isSubclassOf(baseExc.get())) {
            inst->attrs["args"] = makeTuple(args.pos);
            if (cls->isSubclassOf(systemExit.get())) inst->attrs["code"] = args.pos.empty() ? Value() : args.pos.size() == 1 ? args.pos[0] : makeTuple(args.pos);
        }
        const Value* init = cls->lookup("__init__");
        if (init && !init->isNone()) {
            CallArgs a2;
            a2.pos.reserve(args.pos.size() + 1);
            a2.pos.push_back(self);
            for (auto& p : args.pos) a2.pos.push_back(p);
            a2.kw = std::move(args.kw);
            Value r = call(*init, a2);
            if (!r.isNone()) raiseType("__init__() should return None, not '" + typeName(r) + "'");
        } else if (!args.pos.empty() || !args.kw.empty()) {
            if (!cls->isSubclassOf(baseExc.get())) raiseType(cls->name + "() takes no arguments");
        }
        return self;
    }
}

int Interp::builtinMethodKey(const ClassObj* c) const {
    if (c == strCls.get()) return int(OK::Str);
    if (c == listCls.get()) return int(OK::List);
    if (c == dictCls.get()) return int(OK::Dict);
    if (c == setCls.get()) return int(OK::Set);
    if (c == tupleCls.get()) return int(OK::Tuple);
    if (c == tensorCls.get() || c == parameterCls.get()) return int(OK::Tensor);
    if (c == floatCls.get()) return -1 - int(Value::T::Float);
    if (c == intCls.get()) return -1 - int(Value::T::Int);
    return INT32_MIN;
}

// staticmethod / classmethod / property objects found on a class
bool Interp::unwrapDescriptor(Value& v, const Value& instance, const Value& owner) {
    auto* op = v.as<OpaqueObj>();
    if (!op->cls) return false;
    if (op->cls == staticMethodCls) { v = op->attrs["__func__"]; return true; }
    if (op->cls == classMethodCls) {
        auto bm = std::make_shared<BoundMethodObj>();
        bm->self = owner;
        bm->func = op->attrs["__func__"];
        v = Value(bm);
        return true;
    }
    if (op->cls == propertyCls && !instance.isMissing() && !instance.isNone()) {
        Value fget = op->attrs["fget"];
        if (fget.isNone()) raise(attributeError, "property has no getter");
        v = call(fget, {instance});
        return true;
    }
    return false;
}

static Value bindMethod(const Value& self, const Value& fn) {
    if (fn.is(OK::Function)) {
        auto bm = std::make_shared<BoundMethodObj>();
        bm->self = self;
        bm->func = fn;
        return Value(bm);
    }
    if (fn.is(OK::Builtin) && fn.as<BuiltinObj>()->self.isMissing()) {
        auto b = std::make_shared<BuiltinObj>(*fn.as<BuiltinObj>());
        // A native method stored on a class takes self as its first positional argument.
        NativeFn inner = b->fn;
        b->fn = [inner, self](Interp& in, const Value&, CallArgs& a) {
            a.pos.insert(a.pos.begin(), self);
            return inner(in, Value::missing(), a);
        };
        b->self = self;
        return Value(b);
    }
    return fn;
}

// An attribute of a class: its MRO, a builtin type's methods, the metaclass's attributes, and
// the type attributes (__name__, __mro__, __dict__, ...).
bool Interp::classAttr(const Value& o, const std::string& name, Value& out) {
    auto* c = o.as<ClassObj>();
    if (const Value* v = c->lookup(name)) {
        out = *v;
        if (out.is(OK::Opaque)) unwrapDescriptor(out, Value(), o);
        return true;
    }
    if (c->isBuiltinType) {
        int key = builtinMethodKey(c);
        auto mt = methods_.find(key);
        if (key != INT32_MIN && mt != methods_.end()) {
            auto m = mt->second.find(name);
            if (m != mt->second.end()) {
                NativeFn fn = m->second;
                std::string qual = c->name + "." + name;
                out = makeBuiltin(name, [fn, qual](Interp& in, const Value&, CallArgs& a) {
                    if (a.pos.empty()) in.raiseType("unbound method " + qual + "() needs an argument");
                    Value self = a.pos[0];
                    a.pos.erase(a.pos.begin());
                    return fn(in, self, a);
                });
                return true;
            }
        }
    }
    if (c->lazyAttr && c->lazyAttr(*this, name, out)) return true;
    if (c->meta) // the metaclass's attributes: methods bound to the class, properties read on it
        if (const Value* mv = c->meta->lookup(name); mv && !mv->is(OK::Builtin)) {
            out = *mv;
            if (out.is(OK::Function)) out = bindMethod(o, out);
            else if (out.is(OK::Opaque)) unwrapDescriptor(out, o, Value(c->meta));
            return true;
        }
    if (name == "__name__" || name == "__qualname__") { out = makeStr(c->name); return true; }
    if (name == "__module__") { out = makeStr(c->module); return true; }
    if (name == "__class__") { out = Value(typeOf(o)->shared_from_this()); return true; }
    if (name == "__mro__") {
        std::vector<Value> items;
        for (const ClassObj* k : c->order()) items.push_back(Value(const_cast<ClassObj*>(k)->shared_from_this()));
        out = makeTuple(std::move(items));
        return true;
    }
    if (name == "__bases__") {
        std::vector<Value> items;
        if (!c->bases.empty())
            for (auto& b : c->bases) items.push_back(Value(b));
        else if (c->base)
            items.push_back(Value(c->base));
        out = makeTuple(std::move(items));
        return true;
    }
    if (name == "__dict__" && !c->isBuiltinType) { // a copy, in definition order
        auto d = std::make_shared<DictObj>();
        for (auto& k : c->attrOrder)
            if (auto it = c->attrs.find(k); it != c->attrs.end()) d->map.set(makeStr(k), it->second);
        out = Value(d);
        return true;
    }
    if (name == "__base__") { out = c->base ? Value(c->base) : Value(); return true; }
    return false;
}

bool Interp::tryGetAttr(const Value& o, const std::string& name, Value& out) {
    bool getattrRaises = std::exchange(impl_->getattrRaises, false);
    // a class's or module's __getattr__(name): false when it raises AttributeError (unless getAttr asked)
    auto fallback = [&](const Value& getattr, std::vector<Value> args) {
        try {
            out = call(getattr, std::move(args));
            return true;
        } catch (PyException& e) {
            if (!getattrRaises && isInstance(e.exc, attributeError.get())) return false;
            throw;
        }
    };
    if (o.isObj()) {
        switch (o.obj()->kind) {
        case OK::Instance: {
            auto* inst = o.as<InstanceObj>();
            if (name == "__dict__" && !inst->cls->lookup(name)) { out = instanceDict(o); return true; }
            auto it = inst->attrs.find(name);
            if (it != inst->attrs.end()) { out = it->second; return true; }
            if (const Value* m = inst->cls->lookup(name)) {
                out = *m;
                if (out.is(OK::Opaque) && unwrapDescriptor(out, o, Value(inst->cls))) return true;
                if (out.is(OK::Instance)) {
                    // a descriptor of the script's (functools.cached_property): its __get__
                    if (const Value* get = out.as<InstanceObj>()->cls->lookup("__get__")) {
                        out = call(*get, {*m, o, Value(inst->cls)});
                        return true;
                    }
                }
                out = bindMethod(o, *m);
                return true;
            }
            if (name == "__class__") { out = Value(inst->cls); return true; }
            if (const Value* ga = inst->cls->lookup("__getattr__")) return fallback(*ga, {o, makeStr(name)});
            return false;
        }
        case OK::Module: {
            auto* m = o.as<ModuleObj>();
            auto it = m->ns->vars.find(name);
            if (it != m->ns->vars.end()) { out = it->second; return true; }
            auto sub = impl_->modules.find(m->name + "." + name);
            if (sub != impl_->modules.end()) { out = sub->second; return true; }
            if (m->lazyAttr && m->lazyAttr(*this, name, out)) {
                m->ns->vars[name] = out;
                return true;
            }
            auto ga = m->ns->vars.find("__getattr__"); // PEP 562
            if (ga != m->ns->vars.end()) return fallback(ga->second, {makeStr(name)});
            return false;
        }
        case OK::Class: return classAttr(o, name, out);
        case OK::Function: {
            auto* fn = o.as<FunctionObj>();
            auto it = fn->attrs.find(name);
            if (it != fn->attrs.end()) { out = it->second; return true; }
            if (name == "__name__") { out = makeStr(fn->name); return true; }
            if (name == "__qualname__") { out = makeStr(fn->qualname); return true; }
            if (name == "__doc__") {
                // the docstring: a string literal as the body's first statement
                out = Value();
                if (fn->def && !fn->def->body.empty() && fn->def->body[0]->kind == StmtKind::Expr) {
                    auto* e = static_cast<const ExprStmt*>(fn->def->body[0].get())->value.get();
                    if (e->kind == ExprKind::Constant && static_cast<const ConstantExpr*>(e)->ck == ConstKind::Str)
                        out = makeStr(static_cast<const ConstantExpr*>(e)->s);
                }
                return true;
            }
            return false;
        }
        case OK::Builtin:
            if (name == "__name__") { out = makeStr(o.as<BuiltinObj>()->name); return true; }
            return false;
        case OK::BoundMethod: {
            auto* bm = o.as<BoundMethodObj>();
            if (name == "__self__") { out = bm->self; return true; }
            if (name == "__func__") { out = bm->func; return true; }
            return tryGetAttr(bm->func, name, out);
        }
        case OK::Opaque: {
            auto* op = o.as<OpaqueObj>();
            if (op->getattrHook && op->getattrHook(*this, name, out)) return true;
            auto it = op->attrs.find(name);
            if (it != op->attrs.end()) { out = it->second; return true; }
            if (op->cls)
                if (const Value* m = op->cls->lookup(name)) { out = bindMethod(o, *m); return true; }
            break;
        }
        default: break;
        }
    }
    if (name == "__class__") { out = Value(typeOf(o)->shared_from_this()); return true; }
    int kind = o.isObj() ? int(o.obj()->kind) : -1 - int(o.type() == Value::T::Bool ? Value::T::Int : o.type());
    auto& table = methods_[kind];
    auto it = table.find(name);
    if (it != table.end()) {
        // a container's own methods (values, items, index, copy, ...) may read any item
        if (tracer && (o.is(OK::List) || o.is(OK::Tuple) || o.is(OK::Dict))) tracer->onSeqUse(o);
        auto b = std::make_shared<BuiltinObj>();
        b->name = name;
        b->fn = it->second;
        b->self = o;
        out = Value(b);
        return true;
    }
    auto hook = attrHooks_.find(kind);
    if (hook != attrHooks_.end() && hook->second(*this, o, name, out)) return true;
    return false;
}

Value Interp::getAttr(const Value& o, const std::string& name) {
    Value out;
    impl_->getattrRaises = true;
    if (tryGetAttr(o, name, out)) return out;
    // a name PyTorch has and Fuselab does not provide yet says so
    std::string ns = o.is(OK::Module) ? o.as<ModuleObj>()->name : o.isTensor() || (o.is(OK::Class) && o.as<ClassObj>() == tensorCls.get()) ? "torch.Tensor" : "";
    std::string gap = !ns.empty() && torchApiHas(ns, name)
                          ? " (PyTorch 1.13 has " + ns + "." + name + "; Fuselab does not provide it yet: `fuselab api --coverage` lists what is missing)"
                          : "";
    if (o.is(OK::Module) && (ns == "numpy" || ns == "numpy.random"))
        gap = " (Fuselab's numpy has only numpy.random.seed and the constants pi, e, inf, nan so far; use torch for arrays and random numbers)";
    if (o.is(OK::Module)) raise(attributeError, "module '" + o.as<ModuleObj>()->name + "' has no attribute '" + name + "'" + gap);
    if (o.is(OK::Class)) raise(attributeError, "type object '" + o.as<ClassObj>()->name + "' has no attribute '" + name + "'" + gap);
    raise(attributeError, "'" + typeName(o) + "' object has no attribute '" + name + "'" + gap);
}

// type.__setattr__: a class attribute set, without the metaclass's own __setattr__.
void Interp::setClassAttr(const Value& o, const std::string& name, const Value& v) {
    auto* c = o.as<ClassObj>();
    if (c->isBuiltinType) raiseType("cannot set '" + name + "' attribute of immutable type '" + c->name + "'");
    if (!c->attrs.count(name)) c->attrOrder.push_back(name);
    c->attrs[name] = v;
    if (v.is(OK::Function) && v.as<FunctionObj>()->owner.expired()) v.as<FunctionObj>()->owner = std::static_pointer_cast<ClassObj>(o.objp());
}

void Interp::setAttr(const Value& o, const std::string& name, const Value& v) {
    if (tracer && !o.isTensor()) tracer->onMutate(o);
    if (o.is(OK::Instance)) {
        auto* inst = o.as<InstanceObj>();
        const Value* sa = inst->cls->lookup("__setattr__");
        if (sa && sa->is(OK::Function)) { call(*sa, {o, makeStr(name), v}); return; }
        if (const Value* d = inst->cls->lookup(name); d && d->is(OK::Opaque) && d->as<OpaqueObj>()->cls == propertyCls) {
            Value fset = d->as<OpaqueObj>()->attrs["fset"];
            if (fset.isNone()) raise(attributeError, "can't set attribute '" + name + "'");
            call(fset, {o, v});
            return;
        }
        setInstanceAttr(inst, name, v);
        return;
    }
    if (o.is(OK::Class)) {
        if (const Value* m = metaMethod(o, "__setattr__")) { call(*m, {o, makeStr(name), v}); return; }
        setClassAttr(o, name, v);
        return;
    }
    if (o.is(OK::Function)) { o.as<FunctionObj>()->attrs[name] = v; return; }
    if (o.is(OK::Opaque)) { o.as<OpaqueObj>()->attrs[name] = v; return; }
    if (o.isTensor() && tensorSetAttr(*this, o, name, v)) return;
    if (o.is(OK::Module)) {
        // a module of the user's (imported from a file) is theirs to change; Fuselab's own are not
        auto* m = o.as<ModuleObj>();
        if (m->scriptWritable || (m->ns && m->ns->vars.count("__file__"))) {
            m->ns->vars[name] = v;
            return;
        }
        raise(attributeError, "cannot set attributes of module '" + m->name + "' in model scripts");
    }
    raise(attributeError, "'" + typeName(o) + "' object has no attribute '" + name + "'");
}

void Interp::delAttr(const Value& o, const std::string& name) {
    if (tracer) tracer->onMutate(o);
    if (o.is(OK::Instance)) {
        auto* inst = o.as<InstanceObj>();
        const Value* da = inst->cls->lookup("__delattr__");
        if (da && da->is(OK::Function)) { call(*da, {o, makeStr(name)}); return; }
        if (delInstanceAttr(inst, name)) return;
    }
    raise(attributeError, "'" + typeName(o) + "' object has no attribute '" + name + "'");
}

Value Interp::instanceDict(const Value& instance) {
    auto* inst = instance.as<InstanceObj>();
    if (auto d = inst->dictView.lock()) return Value(d);
    auto d = std::make_shared<DictObj>();
    for (auto& [k, v] : inst->attrs) d->map.set(makeStr(k), v);
    d->attrOwner = instance.objp();
    inst->dictView = d;
    return Value(d);
}

void Interp::setInstanceAttr(InstanceObj* inst, const std::string& name, const Value& v) {
    if (name == "__dict__") { // obj.__dict__ = {...}: the attributes are replaced
        if (!v.is(OK::Dict)) raiseType("__dict__ must be set to a dictionary, not a '" + typeName(v) + "'");
        inst->attrs.clear();
        for (auto& e : v.as<DictObj>()->map.entries())
            if (e.live && e.key.isStr()) inst->attrs[strOf(e.key)] = e.val;
        if (auto d = inst->dictView.lock()) d->attrOwner.reset();
        inst->dictView.reset();
        return;
    }
    inst->attrs[name] = v;
    if (auto d = inst->dictView.lock()) d->map.set(makeStr(name), v);
}

bool Interp::delInstanceAttr(InstanceObj* inst, const std::string& name) {
    if (!inst->attrs.erase(name)) return false;
    if (auto d = inst->dictView.lock()) d->map.erase(makeStr(name));
    return true;
}

void Interp::dictChanged(DictObj* d) {
    auto owner = d->attrOwner.lock();
    if (!owner) return;
    auto* inst = static_cast<InstanceObj*>(owner.get());
    inst->attrs.clear();
    for (auto& e : d->map.entries())
        if (e.live && e.key.isStr()) inst->attrs[strOf(e.key)] = e.val;
}

bool Interp::truthy(const Value& v) {
    switch (v.type()) {
    case Value::T::None:
    case Value::T::Missing: return false;
    case Value::T::Bool:
    case Value::T::Int: return v.i() != 0;
    case Value::T::Float: return v.f() != 0.0;
    case Value::T::Obj: break;
    }
    switch (v.obj()->kind) {
    case OK::Str: return !strOf(v).empty();
    case OK::List: return !v.as<ListObj>()->items.empty();
    case OK::Tuple: return !v.as<TupleObj>()->items.empty();
    case OK::Dict: return v.as<DictObj>()->map.size() != 0;
    case OK::Set: return v.as<SetObj>()->map.size() != 0;
    case OK::Range: return len(v) != 0;
    case OK::Tensor: return tensorTruth(*this, v);
    case OK::Instance: {
        auto* inst = v.as<InstanceObj>();
        if (const Value* b = inst->cls->lookup("__bool__")) return truthy(call(*b, {v}));
        if (const Value* l = inst->cls->lookup("__len__")) return truthy(call(*l, {v}));
        return true;
    }
    default: return true;
    }
}

int64_t Interp::len(const Value& v) {
    if (tracer && (v.is(OK::List) || v.is(OK::Tuple) || v.is(OK::Dict))) tracer->onSeqUse(v);
    if (const Value* m = metaMethod(v, "__len__")) {
        Value r = call(*m, {v});
        if (!r.isIntLike()) raiseType("'" + typeName(r) + "' object cannot be interpreted as an integer");
        return r.i();
    }
    if (v.isObj()) {
        switch (v.obj()->kind) {
        case OK::Str: return utf8Length(strOf(v));
        case OK::List: return int64_t(v.as<ListObj>()->items.size());
        case OK::Tuple: return int64_t(v.as<TupleObj>()->items.size());
        case OK::Dict: return int64_t(v.as<DictObj>()->map.size());
        case OK::Set: return int64_t(v.as<SetObj>()->map.size());
        case OK::Range: {
            auto* r = v.as<RangeObj>();
            if (r->step > 0) return r->stop > r->start ? (r->stop - r->start + r->step - 1) / r->step : 0;
            return r->start > r->stop ? (r->start - r->stop - r->step - 1) / (-r->step) : 0;
        }
        case OK::Tensor: return tensorLen(*this, v);
        case OK::Instance: {
            auto* inst = v.as<InstanceObj>();
            if (const Value* l = inst->cls->lookup("__len__")) {
                Value r = call(*l, {v});
                if (!r.isIntLike()) raiseType("'" + typeName(r) + "' object cannot be interpreted as an integer");
                return r.i();
            }
            break;
        }
        default: break;
        }
    }
    raiseType("object of type '" + typeName(v) + "' has no len()");
}

Value Interp::iter(const Value& v) {
    if (tracer && (v.is(OK::List) || v.is(OK::Tuple) || v.is(OK::Dict))) tracer->onSeqUse(v);
    if (const Value* m = metaMethod(v, "__iter__")) return iter(call(*m, {v}));
    if (v.isObj()) {
        switch (v.obj()->kind) {
        case OK::Iterator: return v;
        case OK::List: {
            auto it = std::make_shared<IteratorObj>();
            it->typeName = "list_iterator";
            auto list = std::static_pointer_cast<ListObj>(v.objp());
            auto pos = std::make_shared<size_t>(0);
            it->next = [list, pos](Value& out) {
                if (*pos >= list->items.size()) return false;
                out = list->items[(*pos)++];
                return true;
            };
            return Value(it);
        }
        case OK::Tuple: {
            auto it = std::make_shared<IteratorObj>();
            it->typeName = "tuple_iterator";
            auto t = std::static_pointer_cast<TupleObj>(v.objp());
            auto pos = std::make_shared<size_t>(0);
            it->next = [t, pos](Value& out) {
                if (*pos >= t->items.size()) return false;
                out = t->items[(*pos)++];
                return true;
            };
            return Value(it);
        }
        case OK::Str: {
            auto it = std::make_shared<IteratorObj>();
            it->typeName = "str_iterator";
            auto chars = std::make_shared<std::vector<std::string>>(utf8Chars(strOf(v)));
            auto pos = std::make_shared<size_t>(0);
            it->next = [chars, pos](Value& out) {
                if (*pos >= chars->size()) return false;
                out = makeStr((*chars)[(*pos)++]);
                return true;
            };
            return Value(it);
        }
        case OK::Range: {
            auto r = *v.as<RangeObj>();
            auto it = std::make_shared<IteratorObj>();
            it->typeName = "range_iterator";
            auto cur = std::make_shared<int64_t>(r.start);
            it->next = [r, cur](Value& out) {
                if (r.step > 0 ? *cur >= r.stop : *cur <= r.stop) return false;
                out = Value::integer(*cur);
                *cur += r.step;
                return true;
            };
            return Value(it);
        }
        case OK::Dict:
        case OK::Set: {
            // Iterate keys; a size change during iteration is a RuntimeError, as in Python.
            ValueMap* map = v.is(OK::Dict) ? &v.as<DictObj>()->map : &v.as<SetObj>()->map;
            auto keep = v.objp();
            auto pos = std::make_shared<size_t>(0);
            size_t version = map->version();
            bool isDict = v.is(OK::Dict);
            auto it = std::make_shared<IteratorObj>();
            it->typeName = isDict ? "dict_keyiterator" : "set_iterator";
            std::vector<Value> sortedKeys;
            bool useSorted = !isDict && setIterSorted(*map, sortedKeys);
            if (useSorted) {
                auto keys = std::make_shared<std::vector<Value>>(std::move(sortedKeys));
                Interp* self = this;
                it->next = [keys, pos, keep, map, version, self](Value& out) {
                    if (map->version() != version) self->raise(self->runtimeError, "Set changed size during iteration");
                    if (*pos >= keys->size()) return false;
                    out = (*keys)[(*pos)++];
                    return true;
                };
                return Value(it);
            }
            Interp* self = this;
            it->next = [keep, map, pos, version, self, isDict](Value& out) {
                if (map->version() != version)
                    self->raise(self->runtimeError, std::string(isDict ? "dictionary" : "Set") + " changed size during iteration");
                auto& es = map->entries();
                while (*pos < es.size() && !es[*pos].live) ++*pos;
                if (*pos >= es.size()) return false;
                out = es[(*pos)++].key;
                return true;
            };
            return Value(it);
        }
        case OK::Tensor: return tensorIter(*this, v);
        case OK::Instance: {
            auto* inst = v.as<InstanceObj>();
            if (const Value* m = inst->cls->lookup("__iter__")) {
                Value r = call(*m, {v});
                if (r.is(OK::Instance)) {
                    // A user iterator object with __next__.
                    Value nx = getAttr(r, "__next__");
                    auto it = std::make_shared<IteratorObj>();
                    Interp* self = this;
                    it->next = [self, nx](Value& out) {
                        try {
                            out = self->call(nx, std::vector<Value>{});
                            return true;
                        } catch (PyException& e) {
                            if (self->isInstance(e.exc, self->stopIteration.get())) return false;
                            throw;
                        }
                    };
                    return Value(it);
                }
                return iter(r);
            }
            if (const Value* gi = inst->cls->lookup("__getitem__")) {
                // The old sequence protocol: __getitem__ with 0, 1, ... until IndexError.
                auto it = std::make_shared<IteratorObj>();
                Interp* self = this;
                Value getitem = *gi;
                auto idx = std::make_shared<int64_t>(0);
                it->next = [self, getitem, v, idx](Value& out) {
                    try {
                        out = self->call(getitem, {v, Value::integer((*idx)++)});
                        return true;
                    } catch (PyException& e) {
                        if (self->isInstance(e.exc, self->indexError.get()) || self->isInstance(e.exc, self->stopIteration.get())) return false;
                        throw;
                    }
                };
                return Value(it);
            }
            break;
        }
        default: break;
        }
    }
    raiseType("'" + typeName(v) + "' object is not iterable");
}

bool Interp::next(const Value& it, Value& out) { return it.as<IteratorObj>()->next(out); }

std::vector<Value> Interp::toVector(const Value& v) {
    if (tracer && (v.is(OK::List) || v.is(OK::Tuple))) tracer->onSeqUse(v); // a copy: every item is read
    if (v.is(OK::List)) return v.as<ListObj>()->items;
    if (v.is(OK::Tuple)) return v.as<TupleObj>()->items;
    std::vector<Value> out;
    if (v.is(OK::Range)) {
        int64_t n = len(v);
        checkAlloc(n > INT64_MAX / int64_t(sizeof(Value)) ? INT64_MAX : n * int64_t(sizeof(Value)), "list");
        out.reserve(size_t(n));
    }
    Value it = iter(v);
    Value x;
    while (next(it, x)) {
        out.push_back(x);
        if ((out.size() & 0xffff) == 0) {
            poll();
            checkAlloc(int64_t(out.size()) * int64_t(sizeof(Value)), "sequence");
        }
    }
    return out;
}

bool Interp::contains(const Value& c, const Value& item) {
    if (const Value* m = metaMethod(c, "__contains__")) return truthy(call(*m, {c, item}));
    if (c.isObj()) {
        switch (c.obj()->kind) {
        case OK::Str: {
            if (!item.isStr()) raiseType("'in <string>' requires string as left operand, not " + typeName(item));
            return strOf(c).find(strOf(item)) != std::string::npos;
        }
        case OK::Dict:
            try { return c.as<DictObj>()->map.find(item) != nullptr; }
            catch (UnhashableError& u) { raiseType("unhashable type: '" + u.typeName + "'"); }
        case OK::Set:
            try { return c.as<SetObj>()->map.find(item) != nullptr; }
            catch (UnhashableError& u) { raiseType("unhashable type: '" + u.typeName + "'"); }
        case OK::Range: {
            if (!item.isIntLike()) break;
            auto* r = c.as<RangeObj>();
            int64_t x = item.i();
            if (r->step > 0 ? (x < r->start || x >= r->stop) : (x > r->start || x <= r->stop)) return false;
            return (x - r->start) % r->step == 0;
        }
        case OK::Tensor: return tensorContains(*this, c, item);
        case OK::Instance: {
            if (const Value* m = c.as<InstanceObj>()->cls->lookup("__contains__")) return truthy(call(*m, {c, item}));
            break;
        }
        default: break;
        }
    }
    if (c.is(OK::List) || c.is(OK::Tuple) || c.is(OK::Iterator) || c.is(OK::Range) || c.is(OK::Instance)) {
        if (c.is(OK::List) || c.is(OK::Tuple)) {
            const auto& items = c.is(OK::List) ? c.as<ListObj>()->items : c.as<TupleObj>()->items;
            for (size_t i = 0; i < items.size(); ++i)
                if (items[i].obj() == item.obj() && item.isObj()) return true;
                else if (equals(items[i], item)) return true;
            return false;
        }
        Value it = iter(c);
        Value x;
        while (next(it, x))
            if (equals(x, item)) return true;
        return false;
    }
    raiseType("argument of type '" + typeName(c) + "' is not iterable");
}

bool Interp::equals(const Value& a, const Value& b) { return truthy(compare(CmpOpKind::Eq, a, b)); }

std::string Interp::str(const Value& v) {
    if (v.isStr()) return strOf(v);
    if (const Value* m = metaMethod(v, "__str__")) {
        Value r = call(*m, {v});
        if (!r.isStr()) raiseType("__str__ returned non-string (type " + typeName(r) + ")");
        return strOf(r);
    }
    if (v.is(OK::Device)) {
        auto* d = v.as<DeviceObj>();
        return d->type + (d->index >= 0 ? ":" + std::to_string(d->index) : "");
    }
    if (v.is(OK::Instance)) {
        auto* inst = v.as<InstanceObj>();
        const Value* s = inst->cls->lookup("__str__");
        if (s && s->is(OK::Function)) {
            Value r = call(*s, {v});
            if (!r.isStr()) raiseType("__str__ returned non-string (type " + typeName(r) + ")");
            return strOf(r);
        }
        if (inst->cls->isSubclassOf(baseExc.get())) return exceptionMessage(v);
    }
    return repr(v);
}

// Long: one case per kind of object.
std::string Interp::repr(const Value& v) {
    switch (v.type()) {
    case Value::T::None:
    case Value::T::Missing: return "None";
    case Value::T::Bool: return v.b() ? "True" : "False";
    case Value::T::Int: return std::to_string(v.i());
    case Value::T::Float: return reprFloat(v.f());
    case Value::T::Obj: break;
    }
    Obj* o = v.obj();
    auto guard = [&](const char* open, const char* close, auto body) -> std::string {
        if (impl_->reprActive.count(o)) return std::string(open) + "..." + close;
        if (impl_->reprActive.size() > 200) raise(recursionError, "maximum recursion depth exceeded while getting the repr of an object");
        impl_->reprActive.insert(o);
        std::string r;
        try {
            r = body();
        } catch (...) {
            impl_->reprActive.erase(o);
            throw;
        }
        impl_->reprActive.erase(o);
        return r;
    };
    switch (o->kind) {
    case OK::Str: return reprStr(strOf(v));
    case OK::BigInt: {
        const BigInt& b = v.as<BigIntObj>()->v;
        // CPython 3.11 refuses to print ints of more than 4300 digits (bit length is a cheap bound).
        if (b.bitLength() > 14300) raiseValue("Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit");
        std::string d = b.toDecimal();
        if (d.size() - (b.negative() ? 1 : 0) > 4300) raiseValue("Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit");
        return d;
    }
    case OK::List:
        return guard("[", "]", [&] {
            auto* lo = v.as<ListObj>();
            std::string r = lo->viewName ? std::string(lo->viewName) + "([" : "[";
            auto& items = lo->items;
            for (size_t i = 0; i < items.size(); ++i) {
                if (i) r += ", ";
                r += repr(items[i]);
                if ((i & 0x3ff) == 0) checkAlloc(int64_t(r.size()), "string");
            }
            return r + (lo->viewName ? "])" : "]");
        });
    case OK::Tuple: {
        auto* t = v.as<TupleObj>();
        std::string r;
        for (size_t i = 0; i < t->items.size(); ++i) {
            if (i) r += ", ";
            r += repr(t->items[i]);
        }
        if (t->isSize) return "torch.Size([" + r + "])";
        if (!t->structName.empty()) {
            std::string n = t->structName + "(\n";
            for (size_t i = 0; i < t->items.size(); ++i)
                n += (i ? ",\n" : "") + (i < t->fieldNames.size() ? t->fieldNames[i] : "") + "=" + repr(t->items[i]);
            return n + ")";
        }
        if (t->items.size() == 1) r += ",";
        return "(" + r + ")";
    }
    case OK::Dict:
        return guard("{", "}", [&] {
            auto* d = v.as<DictObj>();
            std::string r;
            bool first = true;
            for (auto& e : d->map.entries()) {
                if (!e.live) continue;
                if (!first) r += ", ";
                first = false;
                if (d->orderedRepr) r += "(" + repr(e.key) + ", " + repr(e.val) + ")";
                else r += repr(e.key) + ": " + repr(e.val);
            }
            if (d->orderedRepr) return d->map.size() ? "OrderedDict([" + r + "])" : std::string("OrderedDict()");
            return "{" + r + "}";
        });
    case OK::Set: {
        auto* s = v.as<SetObj>();
        if (s->map.size() == 0) return "set()";
        std::vector<Value> keys = toVector(v);
        std::string r = "{";
        for (size_t i = 0; i < keys.size(); ++i) {
            if (i) r += ", ";
            r += repr(keys[i]);
        }
        return r + "}";
    }
    case OK::Function: {
        char buf[32];
        snprintf(buf, sizeof buf, "%p", static_cast<void*>(o));
        return "<function " + v.as<FunctionObj>()->qualname + " at " + buf + ">";
    }
    case OK::Builtin: {
        auto* b = v.as<BuiltinObj>();
        if (!b->self.isMissing()) return "<built-in method " + b->name + " of " + typeName(b->self) + " object>";
        return "<built-in function " + b->name + ">";
    }
    case OK::BoundMethod: {
        auto* bm = v.as<BoundMethodObj>();
        std::string q = bm->func.is(OK::Function) ? bm->func.as<FunctionObj>()->qualname : "?";
        return "<bound method " + q + " of " + repr(bm->self) + ">";
    }
    case OK::Class: {
        auto* c = v.as<ClassObj>();
        if (const Value* m = metaMethod(v, "__repr__")) {
            Value r = call(*m, {v});
            if (!r.isStr()) raiseType("__repr__ returned non-string (type " + typeName(r) + ")");
            return strOf(r);
        }
        if (c->module == "builtins") return "<class '" + c->name + "'>";
        const Value* q = c->attrs.count("__qualname__") ? &c->attrs.at("__qualname__") : nullptr;
        return "<class '" + c->module + "." + (q && q->isStr() ? strOf(*q) : c->name) + "'>";
    }
    case OK::Instance: {
        auto* inst = v.as<InstanceObj>();
        const Value* r = inst->cls->lookup("__repr__");
        if (r && r->is(OK::Function)) {
            return guard("", "", [&] {
                Value s = call(*r, {v});
                if (!s.isStr()) raiseType("__repr__ returned non-string (type " + typeName(s) + ")");
                return strOf(s);
            });
        }
        if (inst->cls->isSubclassOf(baseExc.get())) {
            auto it = inst->attrs.find("args");
            std::string a = it != inst->attrs.end() && it->second.is(OK::Tuple) ? repr(it->second) : "()";
            if (it != inst->attrs.end() && it->second.is(OK::Tuple) && it->second.as<TupleObj>()->items.size() == 1) a = "(" + repr(it->second.as<TupleObj>()->items[0]) + ")";
            return inst->cls->name + a;
        }
        char buf[32];
        snprintf(buf, sizeof buf, "%p", static_cast<void*>(o));
        return "<" + inst->cls->module + "." + inst->cls->name + " object at " + buf + ">";
    }
    case OK::Module: {
        auto* m = v.as<ModuleObj>();
        return "<module '" + m->name + "' (built-in)>";
    }
    case OK::Tensor: return tensorRepr(*this, v);
    case OK::Dtype: return "torch." + v.as<DtypeObj>()->name;
    case OK::Device: {
        auto* d = v.as<DeviceObj>();
        return "device(type='" + d->type + "'" + (d->index >= 0 ? ", index=" + std::to_string(d->index) : "") + ")";
    }
    case OK::Slice: {
        auto* s = v.as<SliceObj>();
        return "slice(" + repr(s->start) + ", " + repr(s->stop) + ", " + repr(s->step) + ")";
    }
    case OK::Range: {
        auto* r = v.as<RangeObj>();
        return "range(" + std::to_string(r->start) + ", " + std::to_string(r->stop) + (r->step != 1 ? ", " + std::to_string(r->step) : "") + ")";
    }
    case OK::Iterator: return "<" + v.as<IteratorObj>()->typeName + " object>";
    case OK::Ellipsis: return "Ellipsis";
    case OK::Opaque: {
        auto* op = v.as<OpaqueObj>();
        if (op->cls)
            if (const Value* r = op->cls->lookup("__repr__")) {
                Value s = call(*r, {v});
                if (s.isStr()) return strOf(s);
            }
        return "<" + (op->cls ? op->cls->name : std::string("object")) + " object>";
    }
    }
    return "<object>";
}

// ---------------------------------------------------------------- getitem / setitem
namespace {
// A slice bound or step: an int (clamped past 64 bits, as CPython does), or what toInt takes.
int64_t sliceInt(Interp& in, const Value& v) {
    if (v.isIntLike() || isBigInt(v)) return clampedSliceInt(v);
    return toInt(in, v, "slice indices");
}

// Python's slice.indices(length); the step is at least -INT64_MAX, as CPython's PySlice_Unpack
// makes it (so that it can be negated)
void sliceIndices(Interp& in, const SliceObj* s, int64_t len, int64_t& start, int64_t& stop, int64_t& step) {
    step = s->step.isNone() ? 1 : sliceInt(in, s->step);
    if (step == 0) in.raiseValue("slice step cannot be zero");
    if (step < -INT64_MAX) step = -INT64_MAX;
    int64_t lower = step < 0 ? -1 : 0, upper = step < 0 ? len - 1 : len;
    auto norm = [&](const Value& v, int64_t dflt) {
        if (v.isNone()) return dflt;
        int64_t x = sliceInt(in, v);
        if (x < 0) { x += len; if (x < lower) x = lower; }
        else if (x > upper) x = upper;
        return x;
    };
    start = norm(s->start, step < 0 ? upper : lower);
    stop = norm(s->stop, step < 0 ? lower : upper);
}

// How many items slice.indices' (start, stop, step) select (PySlice_AdjustIndices); counting
// them this way never steps an index past the int64 range, whatever the step.
int64_t sliceLength(int64_t start, int64_t stop, int64_t step) {
    if (step > 0) return start < stop ? (stop - start - 1) / step + 1 : 0;
    return stop < start ? (start - stop - 1) / -step + 1 : 0;
}

int64_t normIndex(Interp& in, const Value& key, int64_t len, const char* what) {
    if (!key.isIntLike()) {
        if (key.isTensor()) return normIndex(in, tensorToIndex(in, key), len, what);
        if (key.is(OK::Instance)) {
            Value m;
            if (in.tryGetAttr(key, "__index__", m)) return normIndex(in, in.call(m, std::vector<Value>{}), len, what);
        }
        in.raiseType(std::string(what) + " indices must be integers or slices, not " + in.typeName(key));
    }
    int64_t i = key.i();
    if (i < 0) i += len;
    if (i < 0 || i >= len) in.raise(in.indexError, std::string(what) + " index out of range");
    return i;
}

template <class Seq>
std::vector<Value> sliceSeq(Interp& in, const Seq& items, const SliceObj* s) {
    int64_t start, stop, step;
    sliceIndices(in, s, int64_t(items.size()), start, stop, step);
    std::vector<Value> out;
    int64_t n = sliceLength(start, stop, step);
    out.reserve(size_t(n));
    for (int64_t k = 0; k < n; ++k) out.push_back(items[start + k * step]);
    return out;
}
} // namespace

Value Interp::getItem(const Value& o, const Value& key) {
    if (const Value* m = metaMethod(o, "__getitem__")) return call(*m, {o, key});
    if (o.isObj()) {
        switch (o.obj()->kind) {
        case OK::List: {
            auto& items = o.as<ListObj>()->items;
            if (key.is(OK::Slice)) return makeList(sliceSeq(*this, items, key.as<SliceObj>()));
            return items[normIndex(*this, key, int64_t(items.size()), "list")];
        }
        case OK::Tuple: {
            auto* t = o.as<TupleObj>();
            if (key.is(OK::Slice)) {
                Value r = makeTuple(sliceSeq(*this, t->items, key.as<SliceObj>()));
                r.as<TupleObj>()->isSize = t->isSize;
                return r;
            }
            return t->items[normIndex(*this, key, int64_t(t->items.size()), "tuple")];
        }
        case OK::Str: {
            auto chars = utf8Chars(strOf(o));
            if (key.is(OK::Slice)) {
                std::string r;
                int64_t start, stop, step;
                sliceIndices(*this, key.as<SliceObj>(), int64_t(chars.size()), start, stop, step);
                int64_t n = sliceLength(start, stop, step);
                for (int64_t k = 0; k < n; ++k) r += chars[start + k * step];
                return makeStr(r);
            }
            return makeStr(chars[normIndex(*this, key, int64_t(chars.size()), "string")]);
        }
        case OK::Dict: {
            Value* v = nullptr;
            try { v = o.as<DictObj>()->map.find(key); }
            catch (UnhashableError& u) { raiseType("unhashable type: '" + u.typeName + "'"); }
            if (!v) {
                auto kv = makeException(keyError, "");
                kv.as<InstanceObj>()->attrs["args"] = makeTuple({key});
                throw ev().makePy(kv);
            }
            return *v;
        }
        case OK::Range: {
            auto* r = o.as<RangeObj>();
            int64_t n = len(o);
            if (key.is(OK::Slice)) {
                // CPython keeps the product of the steps unbounded: past 64 bits it is an error here
                if (isBigInt(key.as<SliceObj>()->step)) raise(overflowError, "Python int too large to convert to C long");
                int64_t start, stop, step;
                sliceIndices(*this, key.as<SliceObj>(), n, start, stop, step);
                auto nr = std::make_shared<RangeObj>();
                nr->start = r->start + start * r->step;
                nr->stop = r->start + stop * r->step;
                if (__builtin_mul_overflow(r->step, step, &nr->step)) raise(overflowError, "Python int too large to convert to C long");
                return Value(nr);
            }
            return Value::integer(r->start + normIndex(*this, key, n, "range object") * r->step);
        }
        case OK::Tensor: return tensorGetItem(*this, o, key);
        case OK::Instance: {
            if (const Value* m = o.as<InstanceObj>()->cls->lookup("__getitem__")) return call(*m, {o, key});
            break;
        }
        case OK::Class: {
            // typing-style subscription of builtin types (list[int]) in annotations
            if (o.as<ClassObj>()->isBuiltinType) return o;
            break;
        }
        case OK::Opaque: {
            auto* op = o.as<OpaqueObj>();
            if (op->cls)
                if (const Value* m = op->cls->lookup("__getitem__")) return call(*m, {o, key});
            break;
        }
        default: break;
        }
    }
    raiseType("'" + typeName(o) + "' object is not subscriptable");
}

void Interp::setItem(const Value& o, const Value& key, const Value& v) {
    if (tracer && !o.isTensor()) tracer->onMutate(o);
    if (o.isObj()) {
        switch (o.obj()->kind) {
        case OK::List: {
            auto& items = o.as<ListObj>()->items;
            if (key.is(OK::Slice)) {
                int64_t start, stop, step;
                sliceIndices(*this, key.as<SliceObj>(), int64_t(items.size()), start, stop, step);
                std::vector<Value> src = toVector(v);
                if (step == 1) {
                    if (stop < start) stop = start;
                    items.erase(items.begin() + start, items.begin() + stop);
                    items.insert(items.begin() + start, src.begin(), src.end());
                    return;
                }
                std::vector<int64_t> idx;
                for (int64_t k = 0, n = sliceLength(start, stop, step); k < n; ++k) idx.push_back(start + k * step);
                if (idx.size() != src.size())
                    raiseValue("attempt to assign sequence of size " + std::to_string(src.size()) + " to extended slice of size " + std::to_string(idx.size()));
                for (size_t i = 0; i < idx.size(); ++i) items[idx[i]] = src[i];
                return;
            }
            items[normIndex(*this, key, int64_t(items.size()), "list assignment")] = v;
            return;
        }
        case OK::Dict:
            try { o.as<DictObj>()->map.set(key, v); }
            catch (UnhashableError& u) { raiseType("unhashable type: '" + u.typeName + "'"); }
            if (o.as<DictObj>()->attrOwner.lock()) dictChanged(o.as<DictObj>());
            return;
        case OK::Tensor: tensorSetItem(*this, o, key, v); return;
        case OK::Instance: {
            if (const Value* m = o.as<InstanceObj>()->cls->lookup("__setitem__")) { call(*m, {o, key, v}); return; }
            break;
        }
        default: break;
        }
    }
    raiseType("'" + typeName(o) + "' object does not support item assignment");
}

void Interp::delItem(const Value& o, const Value& key) {
    if (tracer) tracer->onMutate(o);
    if (o.is(OK::List)) {
        auto& items = o.as<ListObj>()->items;
        if (key.is(OK::Slice)) {
            int64_t start, stop, step;
            sliceIndices(*this, key.as<SliceObj>(), int64_t(items.size()), start, stop, step);
            std::vector<bool> drop(items.size(), false);
            for (int64_t k = 0, n = sliceLength(start, stop, step); k < n; ++k) drop[start + k * step] = true;
            std::vector<Value> kept;
            for (size_t i = 0; i < items.size(); ++i)
                if (!drop[i]) kept.push_back(items[i]);
            items = std::move(kept);
            return;
        }
        items.erase(items.begin() + normIndex(*this, key, int64_t(items.size()), "list assignment"));
        return;
    }
    if (o.is(OK::Dict)) {
        bool erased = false;
        try { erased = o.as<DictObj>()->map.erase(key); }
        catch (UnhashableError& u) { raiseType("unhashable type: '" + u.typeName + "'"); }
        if (!erased) {
            auto kv = makeException(keyError, "");
            kv.as<InstanceObj>()->attrs["args"] = makeTuple({key});
            throw ev().makePy(kv);
        }
        if (o.as<DictObj>()->attrOwner.lock()) dictChanged(o.as<DictObj>());
        return;
    }
    if (o.is(OK::Instance)) {
        if (const Value* m = o.as<InstanceObj>()->cls->lookup("__delitem__")) { call(*m, {o, key}); return; }
    }
    raiseType("'" + typeName(o) + "' object does not support item deletion");
}

// ---------------------------------------------------------------- arithmetic
namespace {
double pyFmod(double a, double b) {
    double m = std::fmod(a, b);
    if (m != 0 && ((b < 0) != (m < 0))) m += b;
    if (m == 0) m = std::copysign(0.0, b);
    return m;
}
} // namespace

namespace {
bool isNotImplemented(const Interp& in, const Value& r) {
    return r.isMissing() || (r.isObj() && r.obj() == in.notImplemented.obj());
}

// The method `name` of an instance's class, bound: special methods are found on the type (never
// through __getattr__), as CPython finds them.
bool specialMethod(Interp& in, const Value& v, const std::string& name, Value& out) {
    if (!v.is(OK::Instance) || !v.as<InstanceObj>()->cls->lookup(name)) return false;
    return in.tryGetAttr(v, name, out);
}

// a <op> b through the operands' own methods, in CPython's order: a's __iop__ (augmented), a's
// __op__, then b's __rop__ (tried first when b's class is a subclass of a's that overrides it).
// A method returning NotImplemented passes to the next; Missing when none decided.
Value userBinary(Interp& in, BinOpKind op, const Value& a, const Value& b, bool inplace) {
    std::string dn = binOpDunder(op), rname = "__r" + dn + "__";
    Value m, r;
    auto attempt = [&](const Value& self, const std::string& name, const Value& other) {
        if (!specialMethod(in, self, name, m)) return false;
        r = in.call(m, {other});
        return !isNotImplemented(in, r);
    };
    if (inplace && attempt(a, "__i" + dn + "__", b)) return r;
    ClassObj* ta = in.typeOf(a);
    ClassObj* tb = in.typeOf(b);
    bool reflected = ta != tb && b.is(OK::Instance);
    if (reflected && tb->isSubclassOf(ta) && tb->lookup(rname) != ta->lookup(rname)) {
        if (attempt(b, rname, a)) return r;
        reflected = false;
    }
    if (attempt(a, "__" + dn + "__", b)) return r;
    if (reflected && attempt(b, rname, a)) return r;
    return Value::missing();
}

// CPython's message when no operand's method handled a <op> b.
[[noreturn]] void unsupportedBinary(Interp& in, BinOpKind op, const Value& a, const Value& b, bool inplace) {
    auto isSeq = [](const Value& v) { return v.isStr() || v.is(OK::List) || v.is(OK::Tuple); };
    if (op == BinOpKind::Add && isSeq(a))
        in.raiseType("can only concatenate " + in.typeName(a) + " (not \"" + in.typeName(b) + "\") to " + in.typeName(a));
    if (op == BinOpKind::Mult && (isSeq(a) || isSeq(b)))
        in.raiseType("can't multiply sequence by non-int of type '" + in.typeName(isSeq(a) ? b : a) + "'");
    in.raiseType(std::string("unsupported operand type(s) for ") + binOpSymbol(op) + (inplace ? "=" : "") + ": '" + in.typeName(a) + "' and '" + in.typeName(b) + "'");
}

CmpOpKind reflectedCmp(CmpOpKind op) {
    switch (op) {
    case CmpOpKind::Lt: return CmpOpKind::Gt;
    case CmpOpKind::Gt: return CmpOpKind::Lt;
    case CmpOpKind::LtE: return CmpOpKind::GtE;
    case CmpOpKind::GtE: return CmpOpKind::LtE;
    default: return op;
    }
}

// v's own comparison method for op, called with w; Missing when its class has none or it returns
// NotImplemented. Without a __ne__, object's: the inverse of __eq__.
Value compareMethod(Interp& in, CmpOpKind op, const Value& v, const Value& w) {
    if (!v.is(OK::Instance)) return Value::missing();
    ClassObj* cls = v.as<InstanceObj>()->cls.get();
    auto callable = [](const Value* m) { return m && (m->is(OK::Function) || m->is(OK::Builtin)); };
    const Value* m = cls->lookup(std::string("__") + cmpOpFunction(op) + "__");
    bool invert = false;
    if (!callable(m) && op == CmpOpKind::NotEq) {
        m = cls->lookup("__eq__");
        invert = true;
    }
    if (!callable(m)) return Value::missing();
    Value r = in.call(*m, {v, w});
    if (isNotImplemented(in, r)) return Value::missing();
    return invert ? Value::boolean(!in.truthy(r)) : r;
}

// A comparison with an instance on either side: the operands' methods, in CPython's order (the
// reflected one first when b's class is a subclass of a's), then identity for == and !=.
Value userCompare(Interp& in, CmpOpKind op, const Value& a, const Value& b) {
    ClassObj* ta = in.typeOf(a);
    ClassObj* tb = in.typeOf(b);
    bool reflectedFirst = b.is(OK::Instance) && ta != tb && tb->isSubclassOf(ta);
    Value r;
    if (reflectedFirst && !(r = compareMethod(in, reflectedCmp(op), b, a)).isMissing()) return r;
    if (!(r = compareMethod(in, op, a, b)).isMissing()) return r;
    if (!reflectedFirst && !(r = compareMethod(in, reflectedCmp(op), b, a)).isMissing()) return r;
    bool same = a.isObj() && b.isObj() && a.obj() == b.obj();
    if (op == CmpOpKind::Eq) return Value::boolean(same);
    if (op == CmpOpKind::NotEq) return Value::boolean(!same);
    in.raiseType(std::string("'") + cmpOpText(op) + "' not supported between instances of '" + in.typeName(a) + "' and '" + in.typeName(b) + "'");
}
} // namespace

Value Interp::bigBinary(BinOpKind op, const Value& a, const Value& b) {
    BigInt x = toBig(a), y = toBig(b);
    switch (op) {
    case BinOpKind::Add: return makeInt(x + y);
    case BinOpKind::Sub: return makeInt(x - y);
    case BinOpKind::Mult:
        if (x.bitLength() + y.bitLength() > (size_t(1) << 26)) raise(memoryError, "integer too large");
        return makeInt(x * y);
    case BinOpKind::FloorDiv:
    case BinOpKind::Mod: {
        if (y.isZero()) raise(zeroDivisionError, op == BinOpKind::Mod ? "integer modulo by zero" : "integer division or modulo by zero");
        BigInt q, r;
        BigInt::floorDivMod(x, y, q, r);
        return makeInt(op == BinOpKind::Mod ? r : q);
    }
    case BinOpKind::Div: {
        if (y.isZero()) raise(zeroDivisionError, "division by zero");
        double r = x.toDouble() / y.toDouble();
        if (std::isinf(r) || std::isnan(r)) raise(overflowError, "integer division result too large for a float");
        return Value::real(r);
    }
    case BinOpKind::Pow: {
        if (y.negative()) {
            if (x.isZero()) raise(zeroDivisionError, "0.0 cannot be raised to a negative power");
            return Value::real(std::pow(x.toDouble(), y.toDouble()));
        }
        int64_t e;
        if (!y.toInt64(e)) raise(memoryError, "integer too large");
        if (double(x.bitLength()) * double(e) > double(size_t(1) << 26)) raise(memoryError, "integer too large");
        return makeInt(BigInt::pow(x, uint64_t(e)));
    }
    case BinOpKind::LShift: {
        int64_t sh;
        if (y.negative()) raiseValue("negative shift count");
        if (!y.toInt64(sh) || uint64_t(sh) + x.bitLength() > (size_t(1) << 26)) raise(memoryError, "integer too large");
        return makeInt(x.shiftedLeft(uint64_t(sh)));
    }
    case BinOpKind::RShift: {
        int64_t sh;
        if (y.negative()) raiseValue("negative shift count");
        if (!y.toInt64(sh) || uint64_t(sh) >= x.bitLength()) return Value::integer(x.negative() ? -1 : 0);
        BigInt q, r;
        BigInt::floorDivMod(x, BigInt::fromInt(1).shiftedLeft(uint64_t(sh)), q, r);
        return makeInt(q);
    }
    case BinOpKind::BitAnd: return makeInt(BigInt::bitwise(x, y, '&'));
    case BinOpKind::BitOr: return makeInt(BigInt::bitwise(x, y, '|'));
    case BinOpKind::BitXor: return makeInt(BigInt::bitwise(x, y, '^'));
    default: raiseType(std::string("unsupported operand type(s) for ") + binOpText(op) + ": 'int' and 'int'");
    }
}

// Long: one case per operator and operand types, tried in CPython's order.
Value Interp::binary(BinOpKind op, const Value& a, const Value& b, bool inplace) {
    if (a.isTensor() || b.isTensor()) return tensorBinary(*this, op, a, b, inplace);
    if ((isBigInt(a) && (b.isIntLike() || isBigInt(b))) || (isBigInt(b) && a.isIntLike())) return bigBinary(op, a, b);
    if ((isBigInt(a) && b.isFloat()) || (a.isFloat() && isBigInt(b))) {
        double x = isBigInt(a) ? a.as<BigIntObj>()->v.toDouble() : a.f();
        double y = isBigInt(b) ? b.as<BigIntObj>()->v.toDouble() : b.f();
        if (std::isinf(x) || std::isinf(y)) raise(overflowError, "int too large to convert to float");
        return binary(op, Value::real(x), Value::real(y), inplace);
    }
    if (a.isIntLike() && b.isIntLike()) {
        int64_t x = a.i(), y = b.i(), r = 0;
        // Python ints do not overflow: past 64 bits the arithmetic continues in BigInt.
        auto overflow = [&]() -> Value { return bigBinary(op, Value::integer(x), Value::integer(y)); };
        switch (op) {
        case BinOpKind::Add: if (__builtin_add_overflow(x, y, &r)) return overflow(); return Value::integer(r);
        case BinOpKind::Sub: if (__builtin_sub_overflow(x, y, &r)) return overflow(); return Value::integer(r);
        case BinOpKind::Mult: if (__builtin_mul_overflow(x, y, &r)) return overflow(); return Value::integer(r);
        case BinOpKind::Div:
            if (y == 0) raise(zeroDivisionError, "division by zero");
            return Value::real(double(x) / double(y));
        case BinOpKind::FloorDiv: {
            if (y == 0) raise(zeroDivisionError, "integer division or modulo by zero");
            if (x == INT64_MIN && y == -1) return overflow();
            int64_t q = x / y;
            if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
            return Value::integer(q);
        }
        case BinOpKind::Mod: {
            if (y == 0) raise(zeroDivisionError, "integer modulo by zero");
            if (y == -1) return Value::integer(0);
            int64_t m = x % y;
            if (m != 0 && ((m < 0) != (y < 0))) m += y;
            return Value::integer(m);
        }
        case BinOpKind::Pow: {
            if (y < 0) {
                if (x == 0) raise(zeroDivisionError, "0.0 cannot be raised to a negative power");
                return Value::real(std::pow(double(x), double(y)));
            }
            int64_t result = 1, base = x;
            int64_t e = y;
            while (e > 0) {
                if (e & 1)
                    if (__builtin_mul_overflow(result, base, &result)) return overflow();
                e >>= 1;
                if (e && __builtin_mul_overflow(base, base, &base)) return overflow();
            }
            return Value::integer(result);
        }
        case BinOpKind::LShift:
            if (y < 0) raiseValue("negative shift count");
            if (y >= 63 || (x != 0 && (y >= 64 || (x > 0 ? x > (INT64_MAX >> y) : x < (INT64_MIN >> y))))) {
                if (x == 0) return Value::integer(0);
                return overflow();
            }
            return Value::integer(x << y);
        case BinOpKind::RShift:
            if (y < 0) raiseValue("negative shift count");
            return Value::integer(y >= 64 ? (x < 0 ? -1 : 0) : x >> y);
        case BinOpKind::BitAnd: return (a.isBool() && b.isBool()) ? Value::boolean(x & y) : Value::integer(x & y);
        case BinOpKind::BitOr: return (a.isBool() && b.isBool()) ? Value::boolean(x | y) : Value::integer(x | y);
        case BinOpKind::BitXor: return (a.isBool() && b.isBool()) ? Value::boolean(x ^ y) : Value::integer(x ^ y);
        case BinOpKind::MatMult: break;
        }
    } else if (a.isNumber() && b.isNumber()) {
        double x = a.num(), y = b.num();
        switch (op) {
        case BinOpKind::Add: return Value::real(x + y);
        case BinOpKind::Sub: return Value::real(x - y);
        case BinOpKind::Mult: return Value::real(x * y);
        case BinOpKind::Div:
            if (y == 0) raise(zeroDivisionError, "float division by zero");
            return Value::real(x / y);
        case BinOpKind::FloorDiv: {
            if (y == 0) raise(zeroDivisionError, "float floor division by zero");
            // CPython's float_divmod
            double mod = std::fmod(x, y);
            double div = (x - mod) / y;
            if (mod != 0) {
                if ((y < 0) != (mod < 0)) div -= 1.0;
            }
            double fd;
            if (div != 0) {
                fd = std::floor(div);
                if (div - fd > 0.5) fd += 1.0;
            } else {
                fd = std::copysign(0.0, x / y);
            }
            return Value::real(fd);
        }
        case BinOpKind::Mod:
            if (y == 0) raise(zeroDivisionError, "float modulo");
            return Value::real(pyFmod(x, y));
        case BinOpKind::Pow:
            if (x == 0 && y < 0) raise(zeroDivisionError, "0.0 cannot be raised to a negative power");
            if (x < 0 && y != std::floor(y)) raiseValue("math domain error: a negative number raised to a fractional power is complex (not supported in model scripts)");
            return Value::real(std::pow(x, y));
        default: break;
        }
    } else if (a.isStr() && b.isStr() && op == BinOpKind::Add) {
        checkAlloc(int64_t(strOf(a).size() + strOf(b).size()), "string");
        return makeStr(strOf(a) + strOf(b));
    } else if (op == BinOpKind::Mult && ((a.isObj() && b.isIntLike()) || (a.isIntLike() && b.isObj()))) {
        const Value& seq = a.isObj() ? a : b;
        int64_t n = std::max<int64_t>(0, a.isObj() ? b.i() : a.i());
        if (seq.isStr()) {
            const std::string& s = strOf(seq);
            if (n && s.size() && (n > INT64_MAX / int64_t(s.size()))) raise(memoryError, "string too large");
            checkAlloc(int64_t(s.size()) * n, "string");
            std::string r;
            r.reserve(s.size() * n);
            for (int64_t i = 0; i < n; ++i) r += s;
            return makeStr(r);
        }
        if (seq.is(OK::List) || seq.is(OK::Tuple)) {
            const auto& items = seq.is(OK::List) ? seq.as<ListObj>()->items : seq.as<TupleObj>()->items;
            if (n && items.size() && n > INT64_MAX / int64_t(items.size() * sizeof(Value))) raise(memoryError, "list too large");
            checkAlloc(int64_t(items.size() * sizeof(Value)) * n, seq.is(OK::List) ? "list" : "tuple");
            std::vector<Value> r;
            r.reserve(items.size() * n);
            for (int64_t i = 0; i < n; ++i) r.insert(r.end(), items.begin(), items.end());
            return seq.is(OK::List) ? makeList(std::move(r)) : makeTuple(std::move(r));
        }
    } else if (op == BinOpKind::Add && a.is(OK::List) && b.is(OK::List)) {
        if (inplace) {
            auto& items = a.as<ListObj>()->items;
            auto src = b.as<ListObj>()->items;
            items.insert(items.end(), src.begin(), src.end());
            return a;
        }
        std::vector<Value> r = a.as<ListObj>()->items;
        auto& src = b.as<ListObj>()->items;
        r.insert(r.end(), src.begin(), src.end());
        return makeList(std::move(r));
    } else if (op == BinOpKind::Add && inplace && a.is(OK::List)) {
        auto src = toVector(b);
        auto& items = a.as<ListObj>()->items;
        items.insert(items.end(), src.begin(), src.end());
        return a;
    } else if (op == BinOpKind::Add && a.is(OK::Tuple) && b.is(OK::Tuple)) {
        std::vector<Value> r = a.as<TupleObj>()->items;
        auto& src = b.as<TupleObj>()->items;
        r.insert(r.end(), src.begin(), src.end());
        Value t = makeTuple(std::move(r));
        t.as<TupleObj>()->isSize = a.as<TupleObj>()->isSize;
        return t;
    } else if (op == BinOpKind::Mod && a.isStr()) {
        return makeStr(percentFormat(*this, strOf(a), b));
    } else if ((a.is(OK::Set) && b.is(OK::Set)) && (op == BinOpKind::BitOr || op == BinOpKind::BitAnd || op == BinOpKind::Sub || op == BinOpKind::BitXor)) {
        return setOperation(*this, op, a, b);
    } else if ((setLikeView(a) || setLikeView(b)) && !inplace &&
               (op == BinOpKind::BitOr || op == BinOpKind::BitAnd || op == BinOpKind::Sub || op == BinOpKind::BitXor)) {
        // d.keys() and d.items() are set-like: with any iterable on either side, a set comes out
        // (d.keys() - {'a'}, ['a', 'b'] - d.keys())
        auto asSet = [&](const Value& v) {
            if (v.is(OK::Set)) return v;
            auto so = std::make_shared<SetObj>();
            for (auto& x : toVector(v)) {
                try { so->map.set(x, Value()); }
                catch (UnhashableError& u) { raiseType("unhashable type: '" + u.typeName + "'"); }
            }
            return Value(so);
        };
        return setOperation(*this, op, asSet(a), asSet(b));
    } else if (op == BinOpKind::BitOr && a.is(OK::Dict) && b.is(OK::Dict)) {
        auto d = std::make_shared<DictObj>();
        for (auto* src : {a.as<DictObj>(), b.as<DictObj>()})
            for (auto& e : src->map.entries())
                if (e.live) d->map.set(e.key, e.val);
        return Value(d);
    }
    // User-defined operators.
    if (a.is(OK::Instance) || b.is(OK::Instance)) {
        Value r = userBinary(*this, op, a, b, inplace);
        if (!r.isMissing()) return r;
    }
    unsupportedBinary(*this, op, a, b, inplace);
}

namespace {
// Lexicographic ordering of sequences: the first unequal pair decides, else the lengths.
Value seqCompare(Interp& in, const std::vector<Value>& x, const std::vector<Value>& y, CmpOpKind op) {
    size_t n = std::min(x.size(), y.size());
    for (size_t i = 0; i < n; ++i)
        if (!in.equals(x[i], y[i])) return in.compare(op, x[i], y[i]);
    return in.compare(op, Value::integer(int64_t(x.size())), Value::integer(int64_t(y.size())));
}
} // namespace

Value Interp::compare(CmpOpKind op, const Value& a, const Value& b) {
    switch (op) {
    case CmpOpKind::Is:
    case CmpOpKind::IsNot: {
        bool same;
        if (a.isObj() && b.isObj()) same = a.obj() == b.obj();
        else if (a.isObj() || b.isObj()) same = false;
        else same = a.type() == b.type() && (a.isNone() || a.isMissing() || (a.isFloat() ? a.f() == b.f() : a.i() == b.i()));
        return Value::boolean(op == CmpOpKind::Is ? same : !same);
    }
    case CmpOpKind::In: return Value::boolean(contains(b, a));
    case CmpOpKind::NotIn: return Value::boolean(!contains(b, a));
    default: break;
    }
    if (a.isTensor() || b.isTensor()) return tensorCompare(*this, op, a, b);
    if (a.is(OK::Instance) || b.is(OK::Instance)) return userCompare(*this, op, a, b);
    if ((isBigInt(a) || isBigInt(b)) && (a.isNumber() || isBigInt(a)) && (b.isNumber() || isBigInt(b))) {
        int c;
        if (a.isFloat() || b.isFloat()) {
            double x = isBigInt(a) ? a.as<BigIntObj>()->v.toDouble() : a.num(), y = isBigInt(b) ? b.as<BigIntObj>()->v.toDouble() : b.num();
            c = x < y ? -1 : x > y ? 1 : 0;
        } else {
            c = BigInt::compare(toBig(a), toBig(b));
        }
        bool r = op == CmpOpKind::Eq ? c == 0 : op == CmpOpKind::NotEq ? c != 0 : op == CmpOpKind::Lt ? c < 0 : op == CmpOpKind::LtE ? c <= 0 : op == CmpOpKind::Gt ? c > 0 : c >= 0;
        return Value::boolean(r);
    }
    if (a.isNumber() && b.isNumber()) {
        bool r;
        if (a.isFloat() || b.isFloat()) {
            double x = a.num(), y = b.num();
            switch (op) {
            case CmpOpKind::Eq: r = x == y; break;
            case CmpOpKind::NotEq: r = x != y; break;
            case CmpOpKind::Lt: r = x < y; break;
            case CmpOpKind::LtE: r = x <= y; break;
            case CmpOpKind::Gt: r = x > y; break;
            default: r = x >= y; break;
            }
        } else {
            int64_t x = a.i(), y = b.i();
            switch (op) {
            case CmpOpKind::Eq: r = x == y; break;
            case CmpOpKind::NotEq: r = x != y; break;
            case CmpOpKind::Lt: r = x < y; break;
            case CmpOpKind::LtE: r = x <= y; break;
            case CmpOpKind::Gt: r = x > y; break;
            default: r = x >= y; break;
            }
        }
        return Value::boolean(r);
    }
    if (a.isStr() && b.isStr()) {
        int c = strOf(a).compare(strOf(b));
        bool r;
        switch (op) {
        case CmpOpKind::Eq: r = c == 0; break;
        case CmpOpKind::NotEq: r = c != 0; break;
        case CmpOpKind::Lt: r = c < 0; break;
        case CmpOpKind::LtE: r = c <= 0; break;
        case CmpOpKind::Gt: r = c > 0; break;
        default: r = c >= 0; break;
        }
        return Value::boolean(r);
    }
    bool seqs = (a.is(OK::List) && b.is(OK::List)) || (a.is(OK::Tuple) && b.is(OK::Tuple));
    struct CompareDepth {
        Interp& in;
        explicit CompareDepth(Interp& i) : in(i) {
            if (++in.nativeDepth > 3000 || Coroutine::stackLeft() < Evaluator::kStackReserve) { in.nativeDepth = 0; in.raise(in.recursionError, "maximum recursion depth exceeded in comparison"); }
        }
        ~CompareDepth() { if (in.nativeDepth > 0) --in.nativeDepth; }
    };
    std::optional<CompareDepth> depthGuard;
    if (seqs || (a.is(OK::Dict) && b.is(OK::Dict))) depthGuard.emplace(*this);
    if (seqs) {
        const auto& x = a.is(OK::List) ? a.as<ListObj>()->items : a.as<TupleObj>()->items;
        const auto& y = b.is(OK::List) ? b.as<ListObj>()->items : b.as<TupleObj>()->items;
        if (op == CmpOpKind::Eq || op == CmpOpKind::NotEq) {
            bool eq = x.size() == y.size();
            for (size_t i = 0; eq && i < x.size(); ++i) {
                if (x[i].isObj() && y[i].isObj() && x[i].obj() == y[i].obj()) continue;
                eq = equals(x[i], y[i]);
            }
            return Value::boolean(op == CmpOpKind::Eq ? eq : !eq);
        }
        return seqCompare(*this, x, y, op);
    }
    if (op == CmpOpKind::Eq || op == CmpOpKind::NotEq) {
        bool eq;
        if (a.is(OK::Dict) && b.is(OK::Dict)) {
            auto& x = a.as<DictObj>()->map;
            auto& y = b.as<DictObj>()->map;
            eq = x.size() == y.size();
            for (auto& e : x.entries()) {
                if (!eq) break;
                if (!e.live) continue;
                const Value* other = y.find(e.key);
                eq = other && equals(e.val, *other);
            }
        } else if (a.is(OK::Set) && b.is(OK::Set)) {
            auto& x = a.as<SetObj>()->map;
            auto& y = b.as<SetObj>()->map;
            eq = x.size() == y.size();
            for (auto& e : x.entries())
                if (eq && e.live) eq = y.find(e.key) != nullptr;
        } else {
            try { eq = keyEquals(a, b); }
            catch (UnhashableError&) { eq = false; }
        }
        return Value::boolean(op == CmpOpKind::Eq ? eq : !eq);
    }
    if (a.is(OK::Set) && b.is(OK::Set)) return setCompare(*this, op, a, b);
    raiseType(std::string("'") + cmpOpText(op) + "' not supported between instances of '" + typeName(a) + "' and '" + typeName(b) + "'");
}

// ---------------------------------------------------------------- native argument binding
Sig::Sig(std::string fname, const std::string& spec) : fname_(std::move(fname)) {
    bool kwOnly = false;
    size_t i = 0;
    while (i < spec.size()) {
        size_t j = spec.find(',', i);
        if (j == std::string::npos) j = spec.size();
        std::string tok = spec.substr(i, j - i);
        i = j + 1;
        size_t a = tok.find_first_not_of(' '), b = tok.find_last_not_of(' ');
        if (a == std::string::npos) continue;
        tok = tok.substr(a, b - a + 1);
        if (tok == "*") { kwOnly = true; continue; }
        P p;
        if (tok.rfind("*", 0) == 0) { p.varargs = true; tok = tok.substr(1); kwOnly = true; }
        if (!tok.empty() && tok.back() == '=') { p.optional = true; tok.pop_back(); }
        p.name = tok;
        p.kwOnly = kwOnly && !p.varargs;
        params_.push_back(p);
    }
}

bool Sig::keywordize(CallArgs& a, const std::string& param) const {
    size_t k = 0;
    for (auto& p : params_) {
        if (p.varargs) return false;
        if (p.kwOnly) continue;
        if (p.name == param) break;
        ++k;
    }
    if (k >= a.pos.size()) return false;
    bool found = false;
    for (auto& p : params_)
        found = found || (p.name == param && !p.kwOnly && !p.varargs);
    if (!found) return false;
    for (auto& kv : a.kw)
        if (kv.first == param) return false; // given twice: bind() raises CPython's TypeError
    // only the last positional can move without shifting the ones before it
    if (k + 1 != a.pos.size()) return false;
    a.kw.emplace_back(param, a.pos[k]);
    a.pos.pop_back();
    return true;
}

std::vector<Value> Sig::bind(Interp& in, CallArgs& a) const {
    std::vector<Value> out(params_.size(), Value::missing());
    size_t pi = 0;
    for (size_t k = 0; k < a.pos.size(); ++k) {
        while (pi < params_.size() && params_[pi].kwOnly) ++pi;
        if (pi >= params_.size()) {
            size_t maxPos = 0;
            for (auto& p : params_) if (!p.kwOnly && !p.varargs) ++maxPos;
            in.raiseType(fname_ + "() takes " + std::to_string(maxPos) + " positional argument" + (maxPos == 1 ? "" : "s") + " but " + std::to_string(a.pos.size()) + (a.pos.size() == 1 ? " was" : " were") + " given");
        }
        if (params_[pi].varargs) {
            std::vector<Value> rest(a.pos.begin() + k, a.pos.end());
            out[pi] = makeTuple(std::move(rest));
            ++pi;
            break;
        }
        out[pi++] = a.pos[k];
    }
    for (auto& [k, v] : a.kw) {
        size_t idx = params_.size();
        for (size_t p = 0; p < params_.size(); ++p)
            if (params_[p].name == k && !params_[p].varargs) { idx = p; break; }
        if (idx == params_.size()) in.raiseType(fname_ + "() got an unexpected keyword argument '" + k + "'");
        if (!out[idx].isMissing()) in.raiseType(fname_ + "() got multiple values for argument '" + k + "'");
        out[idx] = v;
    }
    for (size_t p = 0; p < params_.size(); ++p) {
        if (!out[p].isMissing() || params_[p].optional) continue;
        if (params_[p].varargs) { out[p] = makeTuple(); continue; }
        in.raiseType(fname_ + "() missing required argument '" + params_[p].name + "' (pos " + std::to_string(p + 1) + ")");
    }
    return out;
}

int64_t toInt(Interp& in, const Value& v, const char* what) {
    if (v.isIntLike()) return v.i();
    if (isBigInt(v)) in.raise(in.overflowError, "Python int too large to convert to C long");
    if (v.isTensor()) return tensorToIndex(in, v).i();
    in.raiseType(std::string(what) + " must be an integer, not '" + in.typeName(v) + "'");
}

double toFloat(Interp& in, const Value& v, const char* what) {
    if (v.isNumber()) return v.num();
    if (isBigInt(v)) {
        double d = v.as<BigIntObj>()->v.toDouble();
        if (std::isinf(d)) in.raise(in.overflowError, "int too large to convert to float");
        return d;
    }
    if (v.isTensor()) return tensorToFloat(in, v);
    in.raiseType(std::string(what) + " must be a real number, not '" + in.typeName(v) + "'");
}

const std::string& toStr(Interp& in, const Value& v, const char* what) {
    if (v.isStr()) return strOf(v);
    in.raiseType(std::string(what) + " must be str, not " + in.typeName(v));
}

} // namespace fl::script
