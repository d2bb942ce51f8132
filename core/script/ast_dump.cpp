#include "core/script/ast_dump.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

namespace fl::script {

namespace {

class Dumper {
public:
    explicit Dumper(bool spans) : spans_(spans) {}

    std::string out;

    void span(const Span& s) {
        if (!spans_) return;
        out += '@' + std::to_string(s.line) + ':' + std::to_string(s.col) + '-' + std::to_string(s.endLine) +
               ':' + std::to_string(s.endCol);
    }

    // "(head@span" ... ")"
    void open(const char* head, const Span& s) {
        out += '(';
        out += head;
        span(s);
    }
    void close() { out += ')'; }
    void sp() { out += ' '; }

    static const char* ctxSuffix(Ctx c) { return c == Ctx::Store ? ":store" : c == Ctx::Del ? ":del" : ""; }

    void quoted(const std::string& s) {
        out += '"';
        for (unsigned char c : s) {
            switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
            default:
                if (c < 0x20 || c == 0x7F) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\x%02x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
            }
        }
        out += '"';
    }

    void number(double v) {
        if (std::isinf(v)) {
            out += v > 0 ? "inf" : "-inf";
            return;
        }
        if (std::isnan(v)) {
            out += "nan";
            return;
        }
        // Python's repr(): the shortest digits that round-trip, written in fixed notation when
        // the exponent is in [-4, 16), otherwise as d.ddde+XX.
        char buf[64];
        auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
        std::string sci(buf, r.ptr);
        size_t ePos = sci.find('e');
        std::string mant = sci.substr(0, ePos);
        int exp = std::stoi(sci.substr(ePos + 1));
        bool neg = mant[0] == '-';
        if (neg) mant.erase(0, 1);
        std::string digits;
        for (char c : mant)
            if (c != '.') digits += c;
        std::string s = neg ? "-" : "";
        if (exp >= -4 && exp < 16) {
            if (exp < 0) {
                s += "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
            } else if (static_cast<size_t>(exp) + 1 >= digits.size()) {
                s += digits + std::string(static_cast<size_t>(exp) + 1 - digits.size(), '0') + ".0";
            } else {
                s += digits.substr(0, static_cast<size_t>(exp) + 1) + "." + digits.substr(static_cast<size_t>(exp) + 1);
            }
        } else {
            s += digits.substr(0, 1);
            if (digits.size() > 1) s += "." + digits.substr(1);
            char e[16];
            std::snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
            s += e;
        }
        out += s;
    }

    void optExpr(const ExprP& e) {
        if (e) expr(*e);
        else out += '_';
    }

    void exprs(const std::vector<ExprP>& v) {
        for (const auto& e : v) {
            sp();
            optExpr(e);
        }
    }

    void keyword(const Keyword& k) {
        open("kw", k.span);
        sp();
        out += k.arg.empty() ? "**" : k.arg;
        sp();
        expr(*k.value);
        close();
    }

    void arg(const Arg& a, const ExprP* def, const char* prefix) {
        bool plain = !a.annotation && !(def && *def) && !*prefix && !spans_;
        if (plain) {
            out += a.name;
            return;
        }
        out += '(';
        out += prefix;
        out += a.name;
        span(a.span);
        if (a.annotation) {
            out += " : ";
            expr(*a.annotation);
        }
        if (def && *def) {
            out += " = ";
            expr(**def);
        }
        out += ')';
    }

    void arguments(const Arguments& a) {
        out += "(args";
        size_t firstDefault = a.args.size() - a.defaults.size();
        for (size_t i = 0; i < a.args.size(); i++) {
            sp();
            arg(a.args[i], i >= firstDefault ? &a.defaults[i - firstDefault] : nullptr, "");
            if (i + 1 == a.posonly) out += " /";
        }
        if (a.vararg) {
            sp();
            arg(*a.vararg, nullptr, "*");
        } else if (!a.kwonly.empty()) {
            out += " *";
        }
        for (size_t i = 0; i < a.kwonly.size(); i++) {
            sp();
            arg(a.kwonly[i], i < a.kwDefaults.size() ? &a.kwDefaults[i] : nullptr, "");
        }
        if (a.kwarg) {
            sp();
            arg(*a.kwarg, nullptr, "**");
        }
        out += ')';
    }

    void generators(const std::vector<Comprehension>& gens) {
        for (const auto& g : gens) {
            out += " (for ";
            expr(*g.target);
            sp();
            expr(*g.iter);
            for (const auto& c : g.ifs) {
                out += " (if ";
                expr(*c);
                out += ')';
            }
            out += ')';
        }
    }

    void withCtx(const char* head, Ctx c, const Span& s) {
        std::string h = std::string(head) + ctxSuffix(c);
        open(h.c_str(), s);
    }

    // Long: one case per expression kind, as CPython's ast.dump prints it.
    void expr(const Expr& e) {
        switch (e.kind) {
        case ExprKind::Name: {
            const auto& n = static_cast<const NameExpr&>(e);
            out += n.id;
            out += ctxSuffix(n.ctx);
            span(e.span);
            return;
        }
        case ExprKind::Constant: {
            const auto& c = static_cast<const ConstantExpr&>(e);
            switch (c.ck) {
            case ConstKind::None: out += "None"; break;
            case ConstKind::True: out += "True"; break;
            case ConstKind::False: out += "False"; break;
            case ConstKind::Ellipsis: out += "..."; break;
            case ConstKind::Int: out += c.bigInt ? c.s + "#big" : std::to_string(c.i); break;
            case ConstKind::Float: number(c.f); break;
            case ConstKind::Str: quoted(c.s); break;
            }
            span(e.span);
            return;
        }
        case ExprKind::FString: {
            const auto& f = static_cast<const FStringExpr&>(e);
            if (f.field) {
                const FormattedValue& fv = *f.field;
                open("fmt", e.span);
                sp();
                expr(*fv.value);
                if (fv.conversion) {
                    out += " !";
                    out += fv.conversion;
                }
                if (!fv.formatSpec.empty()) {
                    out += " (spec";
                    exprs(fv.formatSpec);
                    out += ')';
                }
                if (fv.selfDocumenting) out += " =";
                close();
                return;
            }
            open("f", e.span);
            exprs(f.parts);
            close();
            return;
        }
        case ExprKind::List: {
            const auto& l = static_cast<const ListExpr&>(e);
            withCtx("list", l.ctx, e.span);
            exprs(l.elts);
            close();
            return;
        }
        case ExprKind::Tuple: {
            const auto& t = static_cast<const TupleExpr&>(e);
            withCtx("tuple", t.ctx, e.span);
            exprs(t.elts);
            close();
            return;
        }
        case ExprKind::Set: {
            open("set", e.span);
            exprs(static_cast<const SetExpr&>(e).elts);
            close();
            return;
        }
        case ExprKind::Dict: {
            const auto& d = static_cast<const DictExpr&>(e);
            open("dict", e.span);
            for (size_t i = 0; i < d.values.size(); i++) {
                out += " (";
                if (d.keys[i]) expr(*d.keys[i]);
                else out += "**";
                sp();
                expr(*d.values[i]);
                out += ')';
            }
            close();
            return;
        }
        case ExprKind::BinOp: {
            const auto& b = static_cast<const BinOpExpr&>(e);
            open(binOpText(b.op), e.span);
            sp();
            expr(*b.left);
            sp();
            expr(*b.right);
            close();
            return;
        }
        case ExprKind::UnaryOp: {
            const auto& u = static_cast<const UnaryOpExpr&>(e);
            const char* h = u.op == UnaryOpKind::Not ? "not" : u.op == UnaryOpKind::USub ? "u-"
                          : u.op == UnaryOpKind::UAdd ? "u+" : "~";
            open(h, e.span);
            sp();
            expr(*u.operand);
            close();
            return;
        }
        case ExprKind::BoolOp: {
            const auto& b = static_cast<const BoolOpExpr&>(e);
            open(b.op == BoolOpKind::And ? "and" : "or", e.span);
            exprs(b.values);
            close();
            return;
        }
        case ExprKind::Compare: {
            const auto& c = static_cast<const CompareExpr&>(e);
            open("cmp", e.span);
            sp();
            expr(*c.left);
            for (size_t i = 0; i < c.ops.size(); i++) {
                sp();
                out += cmpOpText(c.ops[i]);
                sp();
                expr(*c.comparators[i]);
            }
            close();
            return;
        }
        case ExprKind::Call: {
            const auto& c = static_cast<const CallExpr&>(e);
            open("call", e.span);
            sp();
            expr(*c.func);
            exprs(c.args);
            for (const auto& k : c.keywords) {
                sp();
                keyword(k);
            }
            close();
            return;
        }
        case ExprKind::Attribute: {
            const auto& a = static_cast<const AttributeExpr&>(e);
            withCtx(".", a.ctx, e.span);
            sp();
            expr(*a.value);
            sp();
            out += a.attr;
            close();
            return;
        }
        case ExprKind::Subscript: {
            const auto& s = static_cast<const SubscriptExpr&>(e);
            withCtx("[]", s.ctx, e.span);
            sp();
            expr(*s.value);
            sp();
            expr(*s.slice);
            close();
            return;
        }
        case ExprKind::Slice: {
            const auto& s = static_cast<const SliceExpr&>(e);
            open("slice", e.span);
            sp();
            optExpr(s.lower);
            sp();
            optExpr(s.upper);
            sp();
            optExpr(s.step);
            close();
            return;
        }
        case ExprKind::Lambda: {
            const auto& l = static_cast<const LambdaExpr&>(e);
            open("lambda", e.span);
            sp();
            arguments(l.args);
            sp();
            expr(*l.body);
            close();
            return;
        }
        case ExprKind::IfExp: {
            const auto& i = static_cast<const IfExpExpr&>(e);
            open("ifexp", e.span);
            sp();
            expr(*i.test);
            sp();
            expr(*i.body);
            sp();
            expr(*i.orelse);
            close();
            return;
        }
        case ExprKind::ListComp:
        case ExprKind::SetComp:
        case ExprKind::GeneratorExp:
        case ExprKind::DictComp: {
            const auto& c = static_cast<const CompExpr&>(e);
            const char* h = e.kind == ExprKind::ListComp ? "listcomp" : e.kind == ExprKind::SetComp ? "setcomp"
                          : e.kind == ExprKind::GeneratorExp ? "genexp" : "dictcomp";
            open(h, e.span);
            if (e.kind == ExprKind::DictComp) {
                sp();
                expr(*c.key);
                sp();
                expr(*c.value);
            } else {
                sp();
                expr(*c.elt);
            }
            generators(c.generators);
            close();
            return;
        }
        case ExprKind::Starred: {
            const auto& s = static_cast<const StarredExpr&>(e);
            withCtx("*", s.ctx, e.span);
            sp();
            expr(*s.value);
            close();
            return;
        }
        case ExprKind::NamedExpr: {
            const auto& n = static_cast<const NamedExprExpr&>(e);
            open(":=", e.span);
            sp();
            out += n.target;
            sp();
            expr(*n.value);
            close();
            return;
        }
        case ExprKind::Yield: {
            const auto& y = static_cast<const YieldExpr&>(e);
            open(y.from ? "yield-from" : "yield", e.span);
            if (y.value) {
                sp();
                expr(*y.value);
            }
            close();
            return;
        }
        }
    }

    void body(const char* head, const Body& b) {
        out += " (";
        out += head;
        for (const auto& s : b) {
            sp();
            stmt(*s);
        }
        out += ')';
    }

    void decorators(const std::vector<ExprP>& d) {
        if (d.empty()) return;
        out += " (@";
        exprs(d);
        out += ')';
    }

    void alias(const Alias& a) {
        bool plain = a.asname.empty() && !spans_;
        if (plain) {
            out += a.name;
            return;
        }
        out += '(' + a.name;
        span(a.span);
        if (!a.asname.empty()) out += " as " + a.asname;
        out += ')';
    }

    // A name a pattern binds: `x:store`, or `_` for none.
    void boundName(const std::string& name) {
        if (name.empty()) out += '_';
        else out += name + ":store";
    }

    void pattern(const Pattern& p) {
        switch (p.kind) {
        case PatternKind::Value: expr(*static_cast<const ValuePattern&>(p).value); return;
        case PatternKind::Singleton: {
            ConstKind k = static_cast<const SingletonPattern&>(p).value;
            out += k == ConstKind::None ? "None" : k == ConstKind::True ? "True" : "False";
            span(p.span);
            return;
        }
        case PatternKind::Sequence:
            open("seq", p.span);
            patterns(static_cast<const SequencePattern&>(p).patterns);
            close();
            return;
        case PatternKind::Mapping: {
            const auto& m = static_cast<const MappingPattern&>(p);
            open("map", p.span);
            for (size_t i = 0; i < m.keys.size(); i++) {
                out += " (";
                expr(*m.keys[i]);
                sp();
                pattern(*m.patterns[i]);
                out += ')';
            }
            if (!m.rest.empty()) out += " (** " + m.rest + ":store)";
            close();
            return;
        }
        case PatternKind::Class: {
            const auto& c = static_cast<const ClassPattern&>(p);
            open("cls", p.span);
            sp();
            expr(*c.cls);
            patterns(c.patterns);
            for (size_t i = 0; i < c.kwdAttrs.size(); i++) {
                out += " (kw " + c.kwdAttrs[i] + ' ';
                pattern(*c.kwdPatterns[i]);
                out += ')';
            }
            close();
            return;
        }
        case PatternKind::Star:
            open("*", p.span);
            sp();
            boundName(static_cast<const StarPattern&>(p).name);
            close();
            return;
        case PatternKind::As: {
            const auto& a = static_cast<const AsPattern&>(p);
            if (!a.pattern) { // a capture or the wildcard
                boundName(a.name);
                span(p.span);
                return;
            }
            open("as", p.span);
            sp();
            pattern(*a.pattern);
            sp();
            boundName(a.name);
            close();
            return;
        }
        case PatternKind::Or:
            open("|", p.span);
            patterns(static_cast<const OrPattern&>(p).patterns);
            close();
            return;
        }
    }

    void patterns(const std::vector<PatternP>& ps) {
        for (const auto& p : ps) {
            sp();
            pattern(*p);
        }
    }

    void matchStmt(const MatchStmt& m) {
        open("match", m.span);
        sp();
        expr(*m.subject);
        for (const auto& c : m.cases) {
            out += " (case";
            span(c.span);
            sp();
            pattern(*c.pattern);
            if (c.guard) {
                out += " (if ";
                expr(*c.guard);
                out += ')';
            }
            body("body", c.body);
            out += ')';
        }
        close();
    }

    // Long: one case per statement kind, as CPython's ast.dump prints it.
    void stmt(const Stmt& s) {
        switch (s.kind) {
        case StmtKind::FunctionDef: {
            const auto& f = static_cast<const FunctionDefStmt&>(s);
            open("def", s.span);
            out += ' ' + f.name + ' ';
            arguments(f.args);
            decorators(f.decorators);
            if (f.returns) {
                out += " (-> ";
                expr(*f.returns);
                out += ')';
            }
            body("body", f.body);
            close();
            return;
        }
        case StmtKind::ClassDef: {
            const auto& c = static_cast<const ClassDefStmt&>(s);
            open("class", s.span);
            out += ' ' + c.name;
            if (!c.bases.empty()) {
                out += " (bases";
                exprs(c.bases);
                out += ')';
            }
            for (const auto& k : c.keywords) {
                sp();
                keyword(k);
            }
            decorators(c.decorators);
            body("body", c.body);
            close();
            return;
        }
        case StmtKind::Return: {
            open("return", s.span);
            const auto& r = static_cast<const ReturnStmt&>(s);
            if (r.value) {
                sp();
                expr(*r.value);
            }
            close();
            return;
        }
        case StmtKind::Delete:
            open("del", s.span);
            exprs(static_cast<const DeleteStmt&>(s).targets);
            close();
            return;
        case StmtKind::Assign: {
            const auto& a = static_cast<const AssignStmt&>(s);
            open("=", s.span);
            exprs(a.targets);
            sp();
            expr(*a.value);
            close();
            return;
        }
        case StmtKind::AugAssign: {
            const auto& a = static_cast<const AugAssignStmt&>(s);
            std::string h = std::string(binOpText(a.op)) + "=";
            open(h.c_str(), s.span);
            sp();
            expr(*a.target);
            sp();
            expr(*a.value);
            close();
            return;
        }
        case StmtKind::AnnAssign: {
            const auto& a = static_cast<const AnnAssignStmt&>(s);
            open("ann", s.span);
            sp();
            expr(*a.target);
            sp();
            expr(*a.annotation);
            if (a.value) {
                sp();
                expr(*a.value);
            }
            close();
            return;
        }
        case StmtKind::For: {
            const auto& f = static_cast<const ForStmt&>(s);
            open("for", s.span);
            sp();
            expr(*f.target);
            sp();
            expr(*f.iter);
            body("body", f.body);
            if (!f.orelse.empty()) body("else", f.orelse);
            close();
            return;
        }
        case StmtKind::While: {
            const auto& w = static_cast<const WhileStmt&>(s);
            open("while", s.span);
            sp();
            expr(*w.test);
            body("body", w.body);
            if (!w.orelse.empty()) body("else", w.orelse);
            close();
            return;
        }
        case StmtKind::If: {
            const auto& i = static_cast<const IfStmt&>(s);
            open("if", s.span);
            sp();
            expr(*i.test);
            body("body", i.body);
            if (!i.orelse.empty()) body("else", i.orelse);
            close();
            return;
        }
        case StmtKind::With: {
            const auto& w = static_cast<const WithStmt&>(s);
            open("with", s.span);
            for (const auto& item : w.items) {
                out += " (item ";
                expr(*item.contextExpr);
                if (item.optionalVars) {
                    sp();
                    expr(*item.optionalVars);
                }
                out += ')';
            }
            body("body", w.body);
            close();
            return;
        }
        case StmtKind::Raise: {
            const auto& r = static_cast<const RaiseStmt&>(s);
            open("raise", s.span);
            if (r.exc) {
                sp();
                expr(*r.exc);
            }
            if (r.cause) {
                out += " (from ";
                expr(*r.cause);
                out += ')';
            }
            close();
            return;
        }
        case StmtKind::Try: {
            const auto& t = static_cast<const TryStmt&>(s);
            open("try", s.span);
            body("body", t.body);
            for (const auto& h : t.handlers) {
                out += " (except";
                span(h.span);
                if (h.type) {
                    sp();
                    expr(*h.type);
                }
                if (!h.name.empty()) out += " as " + h.name;
                body("body", h.body);
                out += ')';
            }
            if (!t.orelse.empty()) body("else", t.orelse);
            if (!t.finalbody.empty()) body("finally", t.finalbody);
            close();
            return;
        }
        case StmtKind::Assert: {
            const auto& a = static_cast<const AssertStmt&>(s);
            open("assert", s.span);
            sp();
            expr(*a.test);
            if (a.msg) {
                sp();
                expr(*a.msg);
            }
            close();
            return;
        }
        case StmtKind::Import: {
            open("import", s.span);
            for (const auto& a : static_cast<const ImportStmt&>(s).names) {
                sp();
                alias(a);
            }
            close();
            return;
        }
        case StmtKind::ImportFrom: {
            const auto& f = static_cast<const ImportFromStmt&>(s);
            open("from", s.span);
            out += ' ' + std::string(static_cast<size_t>(f.level), '.') + f.module;
            for (const auto& a : f.names) {
                sp();
                alias(a);
            }
            close();
            return;
        }
        case StmtKind::Global:
        case StmtKind::Nonlocal: {
            const auto& names = s.kind == StmtKind::Global ? static_cast<const GlobalStmt&>(s).names
                                                           : static_cast<const NonlocalStmt&>(s).names;
            open(s.kind == StmtKind::Global ? "global" : "nonlocal", s.span);
            for (const auto& n : names) out += ' ' + n;
            close();
            return;
        }
        case StmtKind::Expr:
            open("expr", s.span);
            sp();
            expr(*static_cast<const ExprStmt&>(s).value);
            close();
            return;
        case StmtKind::Pass: out += "pass"; span(s.span); return;
        case StmtKind::Break: out += "break"; span(s.span); return;
        case StmtKind::Continue: out += "continue"; span(s.span); return;
        case StmtKind::Match: matchStmt(static_cast<const MatchStmt&>(s)); return;
        }
    }

private:
    bool spans_;
};

} // namespace

std::string dumpExpr(const Expr& expr, bool withSpans) {
    Dumper d(withSpans);
    d.expr(expr);
    return d.out;
}

std::string dumpStmt(const Stmt& stmt, bool withSpans) {
    Dumper d(withSpans);
    d.stmt(stmt);
    return d.out;
}

std::string dumpAst(const Module& module, bool withSpans) {
    Dumper d(withSpans);
    for (size_t i = 0; i < module.body.size(); i++) {
        if (i) d.out += '\n';
        d.stmt(*module.body[i]);
    }
    return d.out;
}

// ---------------------------------------------------------------- the operator tables (ast.h)
#define FL_BINOP_TEXT(kind, text, dunder, function) case BinOpKind::kind: return text;
#define FL_BINOP_DUNDER(kind, text, dunder, function) case BinOpKind::kind: return dunder;
#define FL_BINOP_FUNCTION(kind, text, dunder, function) case BinOpKind::kind: return function;
#define FL_CMPOP_TEXT(kind, text, function) case CmpOpKind::kind: return text;
#define FL_CMPOP_FUNCTION(kind, text, function) case CmpOpKind::kind: return function;
const char* binOpText(BinOpKind op) {
    switch (op) { FL_BINOPS(FL_BINOP_TEXT) }
    return "?";
}
const char* binOpDunder(BinOpKind op) {
    switch (op) { FL_BINOPS(FL_BINOP_DUNDER) }
    return "?";
}
const char* binOpFunction(BinOpKind op) {
    switch (op) { FL_BINOPS(FL_BINOP_FUNCTION) }
    return "?";
}
const char* cmpOpText(CmpOpKind op) {
    switch (op) { FL_CMPOPS(FL_CMPOP_TEXT) }
    return "?";
}
const char* cmpOpFunction(CmpOpKind op) {
    switch (op) { FL_CMPOPS(FL_CMPOP_FUNCTION) }
    return "?";
}
#undef FL_BINOP_TEXT
#undef FL_BINOP_DUNDER
#undef FL_BINOP_FUNCTION
#undef FL_CMPOP_TEXT
#undef FL_CMPOP_FUNCTION

} // namespace fl::script
