// Recursive-descent parser for model scripts (a Python 3.11 subset) producing the AST of ast.h.
//
// Structure: one Parser object per file pulls tokens lazily from the Lexer through a small
// buffer that can rewind. Rewinding is used for the ambiguities of the grammar an LL parser
// cannot settle with a token of look-ahead (parenthesized `with` items, and the soft keyword
// `match`: a statement only when a subject and ':' follow) and, on error paths only, to try
// CPython's more specific diagnostics. Expressions follow Python's grammar rule
// by rule (expression -> disjunction ->
// conjunction -> inversion -> comparison -> bitwise/arithmetic by precedence climbing ->
// factor -> power -> primary -> atom). f-strings are parsed like CPython 3.11 does: the string
// token is scanned for replacement fields and each field's text is lexed and parsed again at
// its real position in the file, so nested expressions get exact spans.
//
// Errors: messages follow CPython 3.11, including its second-chance diagnostics ("Perhaps you
// forgot a comma?", "Maybe you meant '=='...") and its rule that a tokenizer error further down
// the file wins over a parser error. Errors CPython only finds when compiling ("'return'
// outside function", duplicate arguments, ...) are held back until the whole file has parsed.
//
// Stack safety: every place that makes the tree one level deeper (a recursive call, or one
// more link in a left-associative chain such as a.b.c or 1+2+3) bumps a depth counter; past
// kMaxDepth the parse stops with "too many nested expressions". This bounds both the parser's
// recursion and the depth of the resulting tree (whose destructor and walkers recurse).
#include "core/script/ast.h"
#include "core/script/lexer.h"
#include "core/script/pyformat.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <string_view>
#include <unordered_set>
#include <utility>

// Keeps bulky helpers out of the frames of the recursive descent functions: inlined, their
// locals would multiply the stack each nesting level costs (badly so in sanitizer builds).
#if defined(_MSC_VER)
#define FL_NOINLINE __declspec(noinline)
#else
#define FL_NOINLINE __attribute__((noinline))
#endif

namespace fl::script {

namespace {

constexpr int kMaxDepth = 1000;
constexpr size_t kMaxIntDigits = 4300; // CPython's default int/str conversion limit

bool isOp(const Token& t, Op op) { return t.kind == TokKind::Op && t.op == op; }
bool isKw(const Token& t, Kw kw) { return t.kind == TokKind::Name && t.kw == kw; }
bool isPlainName(const Token& t) { return t.kind == TokKind::Name && t.kw == Kw::NotKw; }

// Tokens that can begin an expression (CPython's `expression` rule, so not '*' or 'yield').
bool startsExpression(const Token& t) {
    switch (t.kind) {
    case TokKind::Name:
        return t.kw == Kw::NotKw || t.kw == Kw::None || t.kw == Kw::True || t.kw == Kw::False ||
               t.kw == Kw::Not || t.kw == Kw::Lambda || t.kw == Kw::Await;
    case TokKind::Number:
    case TokKind::String: return true;
    case TokKind::Op:
        return t.op == Op::LPar || t.op == Op::LSqb || t.op == Op::LBrace || t.op == Op::Minus ||
               t.op == Op::Plus || t.op == Op::Tilde || t.op == Op::Ellipsis;
    default: return false;
    }
}

// The noun CPython uses for an expression in "cannot assign to ..." messages.
std::string exprName(const Expr& e) {
    switch (e.kind) {
    case ExprKind::Name: return "name";
    case ExprKind::Constant: {
        const auto& c = static_cast<const ConstantExpr&>(e);
        switch (c.ck) {
        case ConstKind::None: return "None";
        case ConstKind::True: return "True";
        case ConstKind::False: return "False";
        case ConstKind::Ellipsis: return "ellipsis";
        default: return "literal";
        }
    }
    case ExprKind::FString: return "f-string expression";
    case ExprKind::List: return "list";
    case ExprKind::Tuple: return "tuple";
    case ExprKind::Dict: return "dict literal";
    case ExprKind::Set: return "set display";
    case ExprKind::BinOp:
    case ExprKind::UnaryOp:
    case ExprKind::BoolOp: return "expression";
    case ExprKind::Compare: return "comparison";
    case ExprKind::Call: return "function call";
    case ExprKind::Attribute: return "attribute";
    case ExprKind::Subscript: return "subscript";
    case ExprKind::Slice: return "slice";
    case ExprKind::Lambda: return "lambda";
    case ExprKind::IfExp: return "conditional expression";
    case ExprKind::ListComp: return "list comprehension";
    case ExprKind::SetComp: return "set comprehension";
    case ExprKind::DictComp: return "dict comprehension";
    case ExprKind::GeneratorExp: return "generator expression";
    case ExprKind::Starred: return "starred";
    case ExprKind::NamedExpr: return "named expression";
    case ExprKind::Yield: return "yield expression";
    }
    return "expression";
}

enum class TargetUse { Store, Del, For };

// The first sub-expression that cannot be an assignment (or del) target, or null.
const Expr* invalidTarget(const Expr& e, TargetUse use) {
    switch (e.kind) {
    case ExprKind::Name:
    case ExprKind::Attribute:
    case ExprKind::Subscript: return nullptr;
    case ExprKind::List:
    case ExprKind::Tuple: {
        const auto& elts = e.kind == ExprKind::List ? static_cast<const ListExpr&>(e).elts
                                                    : static_cast<const TupleExpr&>(e).elts;
        for (const auto& x : elts)
            if (const Expr* bad = invalidTarget(*x, use)) return bad;
        return nullptr;
    }
    case ExprKind::Starred:
        if (use == TargetUse::Del) return &e;
        return invalidTarget(*static_cast<const StarredExpr&>(e).value, use);
    default: return &e;
    }
}

void setContext(Expr& e, Ctx ctx) {
    switch (e.kind) {
    case ExprKind::Name: static_cast<NameExpr&>(e).ctx = ctx; break;
    case ExprKind::Attribute: static_cast<AttributeExpr&>(e).ctx = ctx; break;
    case ExprKind::Subscript: static_cast<SubscriptExpr&>(e).ctx = ctx; break;
    case ExprKind::Starred: {
        auto& s = static_cast<StarredExpr&>(e);
        s.ctx = ctx;
        setContext(*s.value, ctx);
        break;
    }
    case ExprKind::List: {
        auto& l = static_cast<ListExpr&>(e);
        l.ctx = ctx;
        for (auto& x : l.elts) setContext(*x, ctx);
        break;
    }
    case ExprKind::Tuple: {
        auto& t = static_cast<TupleExpr&>(e);
        t.ctx = ctx;
        for (auto& x : t.elts) setContext(*x, ctx);
        break;
    }
    default: break;
    }
}

bool isConst(const Expr& e, ConstKind k) {
    return e.kind == ExprKind::Constant && static_cast<const ConstantExpr&>(e).ck == k;
}

// Expressions CPython's `bitwise_or` rule can produce (so not comparisons, not/and/or,
// conditionals, lambdas, starred or walrus).
bool isBitwiseOrLevel(const Expr& e) {
    switch (e.kind) {
    case ExprKind::Compare:
    case ExprKind::BoolOp:
    case ExprKind::IfExp:
    case ExprKind::Lambda:
    case ExprKind::Starred:
    case ExprKind::Yield:
    case ExprKind::NamedExpr: return false;
    case ExprKind::UnaryOp: return static_cast<const UnaryOpExpr&>(e).op != UnaryOpKind::Not;
    default: return true;
    }
}

// The atom an expression starts with (a in a.b(c)[d] + e).
const Expr* leftmost(const Expr* e) {
    for (;;) {
        switch (e->kind) {
        case ExprKind::BinOp: e = static_cast<const BinOpExpr*>(e)->left.get(); break;
        case ExprKind::Call: e = static_cast<const CallExpr*>(e)->func.get(); break;
        case ExprKind::Attribute: e = static_cast<const AttributeExpr*>(e)->value.get(); break;
        case ExprKind::Subscript: e = static_cast<const SubscriptExpr*>(e)->value.get(); break;
        case ExprKind::Compare: e = static_cast<const CompareExpr*>(e)->left.get(); break;
        case ExprKind::BoolOp: e = static_cast<const BoolOpExpr*>(e)->values.front().get(); break;
        case ExprKind::IfExp: e = static_cast<const IfExpExpr*>(e)->body.get(); break;
        default: return e;
        }
    }
}

bool spanStartsWith(const Span& outer, const Span& inner) { return outer.line == inner.line && outer.col == inner.col; }

void appendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        // Lone surrogates from \ud800 escapes come out as their 3-byte form, like Python's
        // 'surrogatepass'; they cannot be valid UTF-8 anyway.
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Digits of an integer (any base) as a decimal string. Base-1e9 limbs, least significant first.
std::string toDecimal(std::string_view digits, int base) {
    std::vector<uint32_t> limbs{0};
    for (char ch : digits) {
        uint64_t carry = static_cast<uint64_t>(hexValue(ch));
        for (auto& limb : limbs) {
            uint64_t v = static_cast<uint64_t>(limb) * static_cast<uint64_t>(base) + carry;
            limb = static_cast<uint32_t>(v % 1000000000u);
            carry = v / 1000000000u;
        }
        while (carry) {
            limbs.push_back(static_cast<uint32_t>(carry % 1000000000u));
            carry /= 1000000000u;
        }
    }
    std::string out = std::to_string(limbs.back());
    for (size_t i = limbs.size() - 1; i-- > 0;) {
        std::string part = std::to_string(limbs[i]);
        out.append(9 - part.size(), '0');
        out += part;
    }
    return out;
}

template <class T> std::unique_ptr<T> makeNode(const Span& s) {
    auto n = std::make_unique<T>();
    n->span = s;
    return n;
}

// ------------------------------------------------------------ pattern checks
// The errors CPython's compiler (not its parser) finds in a case's pattern. The walk visits the
// patterns in the order the compiler emits code for them and remembers the last one visited:
// CPython reports these errors at that pattern, so the caret lands where Python's does.
struct PatternError {
    std::string message;
    Span at;
};

// A literal mapping key as a value that can be compared with the others (1 == 1.0 == True).
struct KeyConst {
    enum { Num, Big, Str, None } kind = None;
    double num = 0;
    std::string text; // Big: digits; Str: the string
    std::string repr;
};

std::optional<KeyConst> keyConst(const Expr& e) {
    const Expr* x = &e;
    bool negative = false;
    if (x->kind == ExprKind::UnaryOp) {
        negative = true;
        x = static_cast<const UnaryOpExpr*>(x)->operand.get();
    }
    if (x->kind != ExprKind::Constant) return std::nullopt;
    const auto& c = static_cast<const ConstantExpr&>(*x);
    KeyConst k;
    switch (c.ck) {
    case ConstKind::None: k.repr = "None"; return k;
    case ConstKind::True:
    case ConstKind::False:
        k.kind = KeyConst::Num;
        k.num = c.ck == ConstKind::True;
        k.repr = c.ck == ConstKind::True ? "True" : "False";
        return k;
    case ConstKind::Int:
        if (c.bigInt) {
            k.kind = KeyConst::Big;
            k.text = (negative ? "-" : "") + c.s;
            k.repr = k.text;
            return k;
        }
        k.kind = KeyConst::Num;
        k.num = negative ? -double(c.i) : double(c.i);
        k.repr = (negative && c.i ? "-" : "") + std::to_string(c.i);
        return k;
    case ConstKind::Float:
        k.kind = KeyConst::Num;
        k.num = negative ? -c.f : c.f;
        k.repr = reprFloat(k.num);
        return k;
    case ConstKind::Str:
        k.kind = KeyConst::Str;
        k.text = c.s;
        k.repr = reprStr(c.s);
        return k;
    default: return std::nullopt;
    }
}

bool sameKey(const KeyConst& a, const KeyConst& b) {
    if (a.kind != b.kind) return false;
    if (a.kind == KeyConst::Num) return a.num == b.num;
    return a.text == b.text;
}

bool isWildcard(const Pattern& p) {
    return p.kind == PatternKind::As && !static_cast<const AsPattern&>(p).pattern &&
           static_cast<const AsPattern&>(p).name.empty();
}
bool isStarWildcard(const Pattern& p) {
    return p.kind == PatternKind::Star && static_cast<const StarPattern&>(p).name.empty();
}

class PatternCheck {
public:
    // Throws PatternError. `allowIrrefutable`: the case is the last one or has a guard.
    void check(const Pattern& p, bool allowIrrefutable) {
        stores_.clear();
        visit(p, allowIrrefutable);
    }

private:
    std::vector<std::string> stores_; // names bound so far, in order
    Span loc_;

    [[noreturn]] void fail(const std::string& msg) { throw PatternError{msg, loc_}; }

    void store(const std::string& name) {
        if (name == "__debug__") fail("cannot assign to __debug__");
        if (std::find(stores_.begin(), stores_.end(), name) != stores_.end())
            fail("multiple assignments to name '" + name + "' in pattern");
        stores_.push_back(name);
    }

    void visit(const Pattern& p, bool allowIrrefutable) {
        loc_ = p.span;
        switch (p.kind) {
        case PatternKind::Value:
            if (static_cast<const ValuePattern&>(p).value->kind == ExprKind::FString)
                fail("patterns may only match literals and attribute lookups");
            return;
        case PatternKind::Singleton: return;
        case PatternKind::Star:
            if (!static_cast<const StarPattern&>(p).name.empty()) store(static_cast<const StarPattern&>(p).name);
            return;
        case PatternKind::As: {
            const auto& a = static_cast<const AsPattern&>(p);
            if (!a.pattern) {
                if (!allowIrrefutable)
                    fail(a.name.empty() ? "wildcard makes remaining patterns unreachable"
                                        : "name capture '" + a.name + "' makes remaining patterns unreachable");
                if (!a.name.empty()) store(a.name);
                return;
            }
            visit(*a.pattern, allowIrrefutable);
            store(a.name);
            return;
        }
        case PatternKind::Sequence: sequence(static_cast<const SequencePattern&>(p)); return;
        case PatternKind::Mapping: mapping(static_cast<const MappingPattern&>(p)); return;
        case PatternKind::Class: classPattern(static_cast<const ClassPattern&>(p)); return;
        case PatternKind::Or: alternatives(static_cast<const OrPattern&>(p), allowIrrefutable); return;
        }
    }

    void sequence(const SequencePattern& s) {
        int stars = 0;
        bool starWildcard = false, onlyWildcards = true;
        for (const auto& x : s.patterns) {
            if (x->kind == PatternKind::Star) {
                if (++stars > 1) fail("multiple starred names in sequence pattern");
                starWildcard = isStarWildcard(*x);
            }
            onlyWildcards = onlyWildcards && (isWildcard(*x) || isStarWildcard(*x));
        }
        if (onlyWildcards) return; // nothing is compiled for them
        for (const auto& x : s.patterns) {
            // with *_ the items are read by index, and wildcards not at all
            if (starWildcard && (isWildcard(*x) || x->kind == PatternKind::Star)) continue;
            visit(*x, true);
        }
    }

    void mapping(const MappingPattern& m) {
        std::vector<KeyConst> seen;
        for (const auto& key : m.keys) {
            if (auto k = keyConst(*key)) {
                for (const auto& other : seen)
                    if (sameKey(other, *k)) fail("mapping pattern checks duplicate key (" + k->repr + ")");
                seen.push_back(*k);
            } else if (key->kind != ExprKind::Attribute) {
                fail("mapping pattern keys may only match literals and attribute lookups");
            }
        }
        for (const auto& x : m.patterns) visit(*x, true);
        if (!m.rest.empty()) store(m.rest);
    }

    void classPattern(const ClassPattern& c) {
        for (size_t i = 0; i < c.kwdAttrs.size(); ++i) {
            loc_ = c.kwdPatterns[i]->span;
            if (c.kwdAttrs[i] == "__debug__") fail("cannot assign to __debug__");
            for (size_t j = i + 1; j < c.kwdAttrs.size(); ++j) {
                if (c.kwdAttrs[i] != c.kwdAttrs[j]) continue;
                loc_ = c.kwdPatterns[j]->span;
                fail("attribute name repeated in class pattern: " + c.kwdAttrs[i]);
            }
        }
        loc_ = c.span;
        for (const auto& x : c.patterns)
            if (!isWildcard(*x)) visit(*x, true);
        for (const auto& x : c.kwdPatterns)
            if (!isWildcard(*x)) visit(*x, true);
    }

    // Each alternative binds its own names, and all must bind the same ones.
    void alternatives(const OrPattern& o, bool allowIrrefutable) {
        std::vector<std::string> outer = std::move(stores_), control;
        for (size_t i = 0; i < o.patterns.size(); ++i) {
            stores_.clear();
            visit(*o.patterns[i], allowIrrefutable && i + 1 == o.patterns.size());
            if (i == 0) {
                control = stores_;
                continue;
            }
            bool same = stores_.size() == control.size();
            for (const auto& n : control)
                same = same && std::find(stores_.begin(), stores_.end(), n) != stores_.end();
            if (!same) fail("alternative patterns bind different names");
        }
        stores_ = std::move(outer);
        for (const auto& n : control) store(n);
    }
};

struct Scope {
    bool inFunction = false;
    bool inLoop = false;
    bool sawYield = false; // the function's own body has a yield: it is a generator
};

// A source position while walking through a string token (for f-string field positions).
struct SrcPos {
    size_t off = 0;       // byte offset
    int line = 1;
    size_t lineStart = 0; // byte offset where `line` starts
};

class Parser {
public:
    Parser(const std::string& src, const std::string& filename)
        : src_(src), filename_(filename), mainLexer_(src, filename) {
        mainStream_.lex = &mainLexer_;
        ts_ = &mainStream_;
    }

    void parseFile(Body& out) {
        try {
            while (peek().kind != TokKind::End) parseStatement(out);
        } catch (const SyntaxError& e) {
            report(e);
        }
        if (deferred_) throw *deferred_;
    }

private:
    // ------------------------------------------------------------ token stream
    struct Stream {
        Lexer* lex = nullptr;
        std::vector<Token> toks; // tokens read ahead (and kept while a rewind mark is active)
        size_t pos = 0;
        int marks = 0;
        Token last;              // last consumed token other than NEWLINE/INDENT/DEDENT/END
        Token furthest;          // the furthest token read ahead, outside speculative parses
    };

    // The returned reference is only good until the next peek() or take().
    const Token& peek(size_t k = 0) {
        Stream& s = *ts_;
        while (s.pos + k >= s.toks.size()) {
            s.toks.push_back(s.lex->next());
            if (ts_ == &mainStream_) furthestLine_ = s.toks.back().line;
            if (speculating_ == 0) s.furthest = s.toks.back();
        }
        return s.toks[s.pos + k];
    }

    Token take() {
        Token t = peek();
        Stream& s = *ts_;
        s.pos++;
        if (t.kind != TokKind::Newline && t.kind != TokKind::Indent && t.kind != TokKind::Dedent &&
            t.kind != TokKind::End)
            s.last = t;
        if (s.marks == 0 && s.pos == s.toks.size()) {
            s.toks.clear();
            s.pos = 0;
        }
        return t;
    }

    const Token& last() const { return ts_->last; }

    struct Mark {
        size_t pos;
        Token last;
        std::optional<SyntaxError> deferred;
    };
    Mark mark() {
        ts_->marks++;
        speculating_++;
        return Mark{ts_->pos, ts_->last, deferred_};
    }
    void release() {
        ts_->marks--;
        speculating_--;
    }
    // Keeps tokens for a possible rewind without making the parse speculative.
    Mark keep() {
        ts_->marks++;
        return Mark{ts_->pos, ts_->last, deferred_};
    }
    void unkeep() { ts_->marks--; }
    void rewind(const Mark& m) {
        ts_->pos = m.pos;
        ts_->last = m.last;
        deferred_ = m.deferred;
    }

    Span spanFrom(const Token& t) const { return {t.line, t.col, last().endLine, last().endCol}; }
    Span spanFrom(const Expr& e) const { return {e.span.line, e.span.col, last().endLine, last().endCol}; }
    static Span spanFrom(const Span& a, const Span& b) { return {a.line, a.col, b.endLine, b.endCol}; }

    // ------------------------------------------------------------ errors
    FL_NOINLINE SyntaxError makeError(const std::string& msg, int line, int col, const char* kind = "SyntaxError") const {
        SyntaxError e;
        e.message = msg;
        e.filename = filename_;
        e.line = line;
        e.col = col;
        e.kind = kind;
        return e;
    }

    // Picks the error to report for a failed parse, the way CPython does: a tokenizer error
    // met while reading ahead wins; so does one found by tokenizing the rest of the file,
    // except the kinds CPython's tokenizer only flags with a status code, and an unclosed
    // bracket that was opened on the line of the furthest token read or later.
    [[noreturn]] void report(const SyntaxError& e) {
        if (mainLexer_.failed()) (void)mainLexer_.next(); // rethrows the tokenizer's error
        if (e.message == "unexpected indent") throw e;
        int readLine = furthestLine_;
        try {
            while (mainLexer_.next().kind != TokKind::End) {}
        } catch (const SyntaxError& te) {
            if (mainLexer_.unclosedAtEof()) {
                if (mainLexer_.unclosedLine() < readLine) throw te;
            } else if (!mainLexer_.lastErrorQuiet()) {
                throw te;
            }
        }
        throw e;
    }

    [[noreturn]] FL_NOINLINE void raise(const SyntaxError& e) { throw e; }
    [[noreturn]] FL_NOINLINE void raiseAt(const Token& t, const std::string& msg) { raise(makeError(msg, t.line, t.col)); }
    [[noreturn]] FL_NOINLINE void raiseAt(const Expr& e, const std::string& msg) { raise(makeError(msg, e.span.line, e.span.col)); }
    // Like CPython, a plain "invalid syntax" points at the furthest token the parser looked at.
    [[noreturn]] FL_NOINLINE void invalidSyntax(const Token& t) {
        const Token& f = ts_->furthest;
        if (speculating_ == 0 && f.begin > t.begin && f.kind != TokKind::End) raiseAt(Token(f), "invalid syntax");
        raiseAt(t, "invalid syntax");
    }
    [[noreturn]] FL_NOINLINE void unsupported(const Token& t) {
        raiseAt(t, "'" + std::string(ts_->lex->text(t)) + "' is not supported in model scripts");
    }
    [[noreturn]] FL_NOINLINE void tooDeep(const Token& t) { raiseAt(t, "too many nested expressions"); }

    // Errors CPython reports from its compiler: kept until the whole file has parsed.
    void defer(const std::string& msg, int line, int col) {
        if (!deferred_) deferred_ = makeError(msg, line, col);
    }
    void defer(const std::string& msg, const Span& s) { defer(msg, s.line, s.col); }

    Token expectOp(Op op) {
        Token t = peek();
        if (!isOp(t, op)) invalidSyntax(t);
        return take();
    }

    // `:` ending a compound statement header. CPython says "expected ':'" when the line ends
    // there, or always for the headers whose grammar rule insists on the colon.
    void expectColon(bool forced) {
        Token t = peek();
        if (isOp(t, Op::Colon)) {
            take();
            return;
        }
        if (forced || t.kind == TokKind::Newline) raiseAt(t, "expected ':'");
        invalidSyntax(t);
    }

    std::string expectName() {
        Token t = peek();
        if (!isPlainName(t)) invalidSyntax(t);
        take();
        return std::string(ts_->lex->text(t));
    }

    // A complete expression `lastExpr` is followed by token `t` that does not fit. Like CPython:
    // if an expression can be parsed from `t`, suggest the missing parentheses of a Python 2
    // print statement, or (inside brackets) a missing comma.
    [[noreturn]] FL_NOINLINE void unexpectedAfter(const Expr* lastExpr, const Token& bad) {
        Token t = bad; // `bad` may refer into the token buffer, which the look-ahead below grows
        if (isKw(t, Kw::Async) || isKw(t, Kw::Await) || isKw(t, Kw::Yield)) unsupported(t);
        // Inside another call's look-ahead only failing matters, not the message: looking ahead
        // again at every level made `{y{y{y...` take time exponential in its depth.
        if (lastExpr && startsExpression(t) && lookAhead_ == 0) {
            const Expr* a = lastExpr;
            for (;;) { // the trailing disjunction of the element
                if (a->kind == ExprKind::IfExp) a = static_cast<const IfExpExpr*>(a)->orelse.get();
                else if (a->kind == ExprKind::Lambda) a = static_cast<const LambdaExpr*>(a)->body.get();
                else if (a->kind == ExprKind::NamedExpr) a = static_cast<const NamedExprExpr*>(a)->value.get();
                else break;
            }
            const Expr* head = leftmost(a);
            const std::string* id = head->kind == ExprKind::Name ? &static_cast<const NameExpr*>(head)->id : nullptr;
            bool legacy = head == a && id && (*id == "print" || *id == "exec");
            bool parses = false;
            int levelAfter = 0;
            {
                Mark m = mark();
                struct LookAhead {
                    int& depth;
                    explicit LookAhead(int& d) : depth(d) { ++depth; }
                    ~LookAhead() { --depth; }
                } inLookAhead(lookAhead_);
                try {
                    if (legacy) (void)parseStarExpressions();
                    else (void)parseExpression();
                    parses = true;
                    levelAfter = last().level;
                } catch (const SyntaxError&) {
                }
                if (!parses && !legacy && !isKw(t, Kw::Lambda)) {
                    // A PEG parser settles for the longest prefix that parses: an atom will do.
                    rewind(m);
                    try {
                        while (isUnaryOp(peek()) || isKw(peek(), Kw::Not)) take();
                        (void)parseAtom();
                        parses = true;
                        levelAfter = last().level;
                    } catch (const SyntaxError&) {
                    }
                }
                rewind(m);
                release();
            }
            if (parses && legacy)
                raiseAt(*a, "Missing parentheses in call to '" + *id + "'. Did you mean " + *id + "(...)?");
            bool softKeyword = id && (*id == "match" || *id == "case" || *id == "_");
            bool nameThenString = a->kind == ExprKind::Name && t.kind == TokKind::String;
            if (parses && levelAfter > 0 && a->kind != ExprKind::Starred && !softKeyword && !nameThenString)
                raiseAt(*a, "invalid syntax. Perhaps you forgot a comma?");
        }
        invalidSyntax(t);
    }

    static const Expr* lastElement(const Expr& e) {
        if (e.kind == ExprKind::Tuple && !static_cast<const TupleExpr&>(e).elts.empty())
            return static_cast<const TupleExpr&>(e).elts.back().get();
        return &e;
    }

    // `e` (just parsed where a named expression is allowed) is followed by '='. CPython's
    // invalid_named_expression rule: suggest '==' (or ':=' for a plain name).
    FL_NOINLINE void checkStrayEquals(const Expr& e, const Token& startTok) {
        if (!isOp(peek(), Op::Equal)) return;
        if (!isBitwiseOrLevel(e)) return;
        // The rule only applies when the right side is a bitwise_or not followed by another '='.
        bool applies = false;
        {
            Mark m = mark();
            try {
                take();
                (void)parseBinary(1);
                applies = !isOp(peek(), Op::Equal) && !isOp(peek(), Op::ColonEqual);
            } catch (const SyntaxError&) {
            }
            rewind(m);
            release();
        }
        if (!applies) return;
        bool bareName = e.kind == ExprKind::Name && startTok.line == e.span.line && startTok.col == e.span.col;
        if (bareName) raiseAt(e, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
        const Expr* head = leftmost(&e);
        bool excluded = head->kind == ExprKind::List || head->kind == ExprKind::GeneratorExp ||
                        (head->kind == ExprKind::Tuple && spanStartsWith(head->span, e.span)) ||
                        isConst(*head, ConstKind::True) || isConst(*head, ConstKind::False) ||
                        isConst(*head, ConstKind::None);
        if (excluded) return;
        raiseAt(e, "cannot assign to " + exprName(e) + " here. Maybe you meant '==' instead of '='?");
    }

    // Validates an assignment / for / with / del target and sets its context.
    FL_NOINLINE void toTarget(Expr& e, TargetUse use) {
        if (const Expr* bad = invalidTarget(e, use)) {
            if (use == TargetUse::For && bad->kind == ExprKind::Compare) {
                // `for x in y in z` style mistakes point at the comparison's left side.
                const auto* c = static_cast<const CompareExpr*>(bad);
                if (c->ops.front() == CmpOpKind::In)
                    if (const Expr* inner = invalidTarget(*c->left, use)) bad = inner;
            }
            raiseAt(*bad, std::string(use == TargetUse::Del ? "cannot delete " : "cannot assign to ") + exprName(*bad));
        }
        setContext(e, use == TargetUse::Del ? Ctx::Del : Ctx::Store);
        if (use != TargetUse::Del) checkStarredTargets(e, true);
    }

    // The compiler's rules for starred targets.
    void checkStarredTargets(const Expr& e, bool top) {
        if (e.kind == ExprKind::Starred) {
            if (top) defer("starred assignment target must be in a list or tuple", e.span);
            return;
        }
        if (e.kind != ExprKind::List && e.kind != ExprKind::Tuple) return;
        const auto& elts = e.kind == ExprKind::List ? static_cast<const ListExpr&>(e).elts
                                                    : static_cast<const TupleExpr&>(e).elts;
        int stars = 0;
        for (const auto& x : elts) {
            if (x->kind == ExprKind::Starred) {
                if (++stars == 2) defer("multiple starred expressions in assignment", e.span);
                checkStarredTargets(*static_cast<const StarredExpr&>(*x).value, false);
            } else {
                checkStarredTargets(*x, false);
            }
        }
    }

    // ------------------------------------------------------------ statements
    void parseStatement(Body& out) {
        Token t = peek();
        if (t.kind == TokKind::Indent)
            throw makeError("unexpected indent", t.line, t.col, "IndentationError");
        if (t.kind == TokKind::Name) {
            switch (t.kw) {
            case Kw::If: out.push_back(parseIf()); return;
            case Kw::While: out.push_back(parseWhile()); return;
            case Kw::For: out.push_back(parseFor()); return;
            case Kw::Try: out.push_back(parseTry()); return;
            case Kw::With: out.push_back(parseWith()); return;
            case Kw::Def: out.push_back(parseFunctionDef({})); return;
            case Kw::Class: out.push_back(parseClassDef({})); return;
            case Kw::Async: unsupported(t);
            default: break;
            }
            if (tryParseMatch(out)) return;
        }
        if (isOp(t, Op::At)) {
            out.push_back(parseDecorated());
            return;
        }
        parseSimpleStatements(out);
    }

    // small_stmt (';' small_stmt)* [';'] NEWLINE
    FL_NOINLINE void parseSimpleStatements(Body& out) {
        for (;;) {
            out.push_back(parseSmallStatement());
            Token t = peek();
            if (isOp(t, Op::Semi)) {
                take();
                if (peek().kind == TokKind::Newline) {
                    take();
                    return;
                }
                continue;
            }
            if (t.kind == TokKind::Newline) {
                take();
                return;
            }
            unexpectedAfter(lastExprOf(*out.back()), t);
        }
    }

    // The expression a simple statement ends with, for "Missing parentheses in call to 'print'".
    static const Expr* lastExprOf(const Stmt& s) {
        const Expr* e = nullptr;
        switch (s.kind) {
        case StmtKind::Expr: e = static_cast<const ExprStmt&>(s).value.get(); break;
        case StmtKind::Assign: e = static_cast<const AssignStmt&>(s).value.get(); break;
        case StmtKind::AugAssign: e = static_cast<const AugAssignStmt&>(s).value.get(); break;
        case StmtKind::Return: e = static_cast<const ReturnStmt&>(s).value.get(); break;
        case StmtKind::Raise: {
            const auto& r = static_cast<const RaiseStmt&>(s);
            e = r.cause ? r.cause.get() : r.exc.get();
            break;
        }
        case StmtKind::Assert: {
            const auto& a = static_cast<const AssertStmt&>(s);
            e = a.msg ? a.msg.get() : a.test.get();
            break;
        }
        case StmtKind::AnnAssign: {
            const auto& a = static_cast<const AnnAssignStmt&>(s);
            e = a.value ? a.value.get() : a.annotation.get();
            break;
        }
        default: break;
        }
        return e;
    }

    // After a header's ':': an indented block, or simple statements on the same line.
    void parseBlock(Body& out, const char* what, int headerLine) {
        if (peek().kind != TokKind::Newline) {
            parseSimpleStatements(out);
            return;
        }
        take();
        Token t = peek();
        if (t.kind != TokKind::Indent)
            raise(makeError(std::string("expected an indented block after ") + what + " on line " +
                                std::to_string(headerLine),
                            t.line, t.col, "IndentationError"));
        take();
        for (;;) {
            parseStatement(out);
            if (peek().kind == TokKind::Dedent) {
                take();
                return;
            }
        }
    }

    template <class T> StmtP keywordStmt(const Token& t) {
        take();
        return makeNode<T>(spanFrom(t));
    }

    StmtP parseSmallStatement() {
        Token t = peek();
        if (t.kind == TokKind::Name) {
            switch (t.kw) {
            case Kw::Pass: return keywordStmt<PassStmt>(t);
            case Kw::Break:
                if (!scope_.inLoop) defer("'break' outside loop", t.line, t.col);
                return keywordStmt<BreakStmt>(t);
            case Kw::Continue:
                if (!scope_.inLoop) defer("'continue' not properly in loop", t.line, t.col);
                return keywordStmt<ContinueStmt>(t);
            case Kw::Return: return parseReturn();
            case Kw::Raise: return parseRaise();
            case Kw::Global:
            case Kw::Nonlocal: return parseGlobal();
            case Kw::Del: return parseDel();
            case Kw::Assert: return parseAssert();
            case Kw::Import: return parseImport();
            case Kw::From: return parseFromImport();
            case Kw::Yield: {
                auto s = std::make_unique<ExprStmt>();
                s->value = parseYield();
                if (isOp(peek(), Op::Equal)) return parseAssign(std::move(s->value), false, t);
                s->span = spanFrom(t);
                return s;
            }
            case Kw::Await:
            case Kw::Async: unsupported(t);
            default: break;
            }
        }
        return parseExprStatement();
    }

    bool atStatementEnd() {
        Token t = peek();
        return t.kind == TokKind::Newline || isOp(t, Op::Semi);
    }

    // yield_expr: 'yield' 'from' expression | 'yield' [star_expressions]. One inside a lambda is
    // refused here; one inside a comprehension, by banYields once the comprehension is parsed.
    FL_NOINLINE ExprP parseYield() {
        Token y = take();
        auto e = std::make_unique<YieldExpr>();
        if (isKw(peek(), Kw::From)) {
            take();
            e->from = true;
            e->value = parseExpression();
        } else if (startsExpression(peek()) || isOp(peek(), Op::Star)) {
            e->value = parseStarExpressions();
            if (e->value->kind == ExprKind::Starred) defer("can't use starred expression here", e->value->span);
        }
        e->span = spanFrom(y);
        if (lambdaDepth_ > 0) {
            defer("'yield' inside a lambda (not supported in model scripts)", e->span);
            return e;
        }
        if (!scope_.inFunction) defer("'yield' outside function", e->span);
        scope_.sawYield = true;
        yieldSpans_.push_back(e->span);
        return e;
    }

    static bool before(int l1, int c1, int l2, int c2) { return l1 < l2 || (l1 == l2 && c1 < c2); }
    static bool within(const Span& in, const Span& s) {
        return !before(s.line, s.col, in.line, in.col) && !before(in.endLine, in.endCol, s.endLine, s.endCol);
    }

    // A yield inside a comprehension (CPython: "'yield' inside list comprehension"), except in
    // its first iterable, which runs in the enclosing function; a yield inside a lambda.
    void banYields(const Span& whole, const Expr* firstIter, const char* what) {
        for (const Span& y : yieldSpans_)
            if (within(whole, y) && !(firstIter && within(firstIter->span, y))) {
                defer(std::string("'yield' inside ") + what, y);
                return;
            }
    }

    StmtP parseReturn() {
        Token r = take();
        auto s = std::make_unique<ReturnStmt>();
        if (!atStatementEnd()) s->value = parseValue();
        s->span = spanFrom(r);
        if (!scope_.inFunction) defer("'return' outside function", s->span);
        return s;
    }

    StmtP parseRaise() {
        Token r = take();
        auto s = std::make_unique<RaiseStmt>();
        if (!atStatementEnd()) {
            s->exc = parseExpression();
            if (isKw(peek(), Kw::From)) {
                take();
                s->cause = parseExpression();
            }
        }
        s->span = spanFrom(r);
        return s;
    }

    StmtP parseGlobal() {
        Token g = take();
        std::vector<std::string> names;
        names.push_back(expectName());
        while (isOp(peek(), Op::Comma)) {
            take();
            names.push_back(expectName());
        }
        if (g.kw == Kw::Global) {
            auto s = makeNode<GlobalStmt>(spanFrom(g));
            s->names = std::move(names);
            return s;
        }
        auto s = makeNode<NonlocalStmt>(spanFrom(g));
        s->names = std::move(names);
        if (!scope_.inFunction) defer("nonlocal declaration not allowed at module level", s->span);
        return s;
    }

    StmtP parseDel() {
        Token d = take();
        auto s = std::make_unique<DeleteStmt>();
        for (;;) {
            ExprP target = parseBinary(1);
            toTarget(*target, TargetUse::Del);
            s->targets.push_back(std::move(target));
            if (!isOp(peek(), Op::Comma)) break;
            take();
            if (atStatementEnd()) break;
        }
        s->span = spanFrom(d);
        return s;
    }

    StmtP parseAssert() {
        Token a = take();
        auto s = std::make_unique<AssertStmt>();
        s->test = parseExpression();
        if (isOp(peek(), Op::Comma)) {
            take();
            s->msg = parseExpression();
        }
        s->span = spanFrom(a);
        return s;
    }

    std::string parseDottedName() {
        std::string name = expectName();
        while (isOp(peek(), Op::Dot)) {
            take();
            name += '.';
            name += expectName();
        }
        return name;
    }

    FL_NOINLINE StmtP parseImport() {
        Token i = take();
        auto s = std::make_unique<ImportStmt>();
        for (;;) {
            Token start = peek();
            Alias a;
            a.name = parseDottedName();
            if (isKw(peek(), Kw::As)) {
                take();
                a.asname = expectName();
            }
            a.span = spanFrom(start);
            s->names.push_back(std::move(a));
            if (!isOp(peek(), Op::Comma)) break;
            take();
        }
        s->span = spanFrom(i);
        return s;
    }

    FL_NOINLINE StmtP parseFromImport() {
        Token f = take();
        auto s = std::make_unique<ImportFromStmt>();
        for (;;) {
            Token t = peek();
            if (isOp(t, Op::Dot)) s->level += 1;
            else if (isOp(t, Op::Ellipsis)) s->level += 3;
            else break;
            take();
        }
        if (!isKw(peek(), Kw::Import)) s->module = parseDottedName();
        else if (s->level == 0) invalidSyntax(peek());
        if (!isKw(peek(), Kw::Import)) invalidSyntax(peek());
        take();
        Token t = peek();
        if (isOp(t, Op::Star)) {
            take();
            Alias a;
            a.name = "*";
            a.span = spanFrom(t);
            s->names.push_back(std::move(a));
        } else {
            bool parens = isOp(t, Op::LPar);
            if (parens) take();
            for (;;) {
                Token start = peek();
                Alias a;
                a.name = expectName();
                if (isKw(peek(), Kw::As)) {
                    take();
                    a.asname = expectName();
                }
                a.span = spanFrom(start);
                s->names.push_back(std::move(a));
                if (!isOp(peek(), Op::Comma)) break;
                take();
                if (parens && isOp(peek(), Op::RPar)) break;
                if (!parens && atStatementEnd())
                    raiseAt(peek(), "trailing comma not allowed without surrounding parentheses");
            }
            if (parens) expectOp(Op::RPar);
        }
        s->span = spanFrom(f);
        return s;
    }

    // Right-hand sides: star_expressions, or a yield expression where Python allows one
    // (augmented and annotated assignments; not `return` or a `for` statement's iterable).
    ExprP parseValue(bool yieldOk = false) {
        Token t = peek();
        if (isKw(t, Kw::Yield)) {
            if (yieldOk) return parseYield();
            invalidSyntax(t);
        }
        ExprP v = parseStarExpressions();
        if (v->kind == ExprKind::Starred) defer("can't use starred expression here", v->span);
        return v;
    }

    static bool augAssignOp(const Token& t, BinOpKind& k) {
        if (t.kind != TokKind::Op) return false;
        switch (t.op) {
        case Op::PlusEqual: k = BinOpKind::Add; return true;
        case Op::MinusEqual: k = BinOpKind::Sub; return true;
        case Op::StarEqual: k = BinOpKind::Mult; return true;
        case Op::AtEqual: k = BinOpKind::MatMult; return true;
        case Op::SlashEqual: k = BinOpKind::Div; return true;
        case Op::DoubleSlashEqual: k = BinOpKind::FloorDiv; return true;
        case Op::PercentEqual: k = BinOpKind::Mod; return true;
        case Op::DoubleStarEqual: k = BinOpKind::Pow; return true;
        case Op::LeftShiftEqual: k = BinOpKind::LShift; return true;
        case Op::RightShiftEqual: k = BinOpKind::RShift; return true;
        case Op::VBarEqual: k = BinOpKind::BitOr; return true;
        case Op::CircumflexEqual: k = BinOpKind::BitXor; return true;
        case Op::AmperEqual: k = BinOpKind::BitAnd; return true;
        default: return false;
        }
    }

    FL_NOINLINE StmtP parseExprStatement() {
        Token start = peek();
        bool firstBare = false;
        ExprP first = parseStarExpressions(&firstBare);
        Token t = peek();
        BinOpKind aug;
        if (isOp(t, Op::Equal)) return parseAssign(std::move(first), firstBare, start);
        if (augAssignOp(t, aug)) {
            if (first->kind != ExprKind::Name && first->kind != ExprKind::Attribute &&
                first->kind != ExprKind::Subscript)
                raiseAt(*first, "'" + exprName(*first) + "' is an illegal expression for augmented assignment");
            take();
            auto s = std::make_unique<AugAssignStmt>();
            setContext(*first, Ctx::Store);
            s->target = std::move(first);
            s->op = aug;
            s->value = parseValue(true);
            s->span = spanFrom(start);
            return s;
        }
        if (isOp(t, Op::Colon)) {
            // CPython only blames the target when an annotation follows the ':'.
            if (!startsExpression(peek(1))) {
                take();
                invalidSyntax(peek());
            }
            switch (first->kind) {
            case ExprKind::Name:
            case ExprKind::Attribute:
            case ExprKind::Subscript: break;
            case ExprKind::Tuple: raiseAt(*first, "only single target (not tuple) can be annotated");
            case ExprKind::List: raiseAt(*first, "only single target (not list) can be annotated");
            default: raiseAt(*first, "illegal target for annotation");
            }
            take();
            auto s = std::make_unique<AnnAssignStmt>();
            setContext(*first, Ctx::Store);
            s->target = std::move(first);
            s->annotation = parseExpression();
            if (isOp(peek(), Op::Equal)) {
                take();
                s->value = parseValue(true);
            }
            s->span = spanFrom(start);
            return s;
        }
        if (first->kind == ExprKind::Starred) defer("can't use starred expression here", first->span);
        auto s = std::make_unique<ExprStmt>();
        s->span = spanFrom(start);
        s->value = std::move(first);
        return s;
    }

    FL_NOINLINE StmtP parseAssign(ExprP first, bool firstBare, const Token& start) {
        auto s = std::make_unique<AssignStmt>();
        std::vector<ExprP> parts;
        parts.push_back(std::move(first));
        bool valueBare = false;
        while (isOp(peek(), Op::Equal)) {
            take();
            if (isKw(peek(), Kw::Yield)) parts.push_back(parseYield());
            else parts.push_back(parseStarExpressions(&valueBare));
        }
        ExprP value = std::move(parts.back());
        parts.pop_back();

        // "cannot assign to X here. Maybe you meant '=='": CPython's check for `target = value`
        // where the expression right before '=' could never be assigned to.
        if (parts.size() == 1) {
            const Expr& target = *parts[0];
            const Expr& x = firstBare ? *static_cast<const TupleExpr&>(target).elts.back() : target;
            const Expr* vhead = &*value;
            if (valueBare) vhead = static_cast<const TupleExpr*>(vhead)->elts.front().get();
            vhead = leftmost(vhead);
            bool valueOk = vhead->kind != ExprKind::Starred && vhead->kind != ExprKind::Lambda &&
                           !(vhead->kind == ExprKind::UnaryOp &&
                             static_cast<const UnaryOpExpr*>(vhead)->op == UnaryOpKind::Not);
            if (valueOk && invalidTarget(target, TargetUse::Store) && isBitwiseOrLevel(x)) {
                const Expr* head = leftmost(&x);
                bool excluded = head->kind == ExprKind::List || head->kind == ExprKind::GeneratorExp ||
                                head->kind == ExprKind::Tuple || isConst(*head, ConstKind::True) ||
                                isConst(*head, ConstKind::False) || isConst(*head, ConstKind::None);
                if (!excluded) {
                    if (x.kind == ExprKind::Name)
                        raiseAt(x, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
                    if (invalidTarget(x, TargetUse::Store))
                        raiseAt(x, "cannot assign to " + exprName(x) + " here. Maybe you meant '==' instead of '='?");
                }
            }
        }
        for (auto& p : parts) toTarget(*p, TargetUse::Store);
        if (value->kind == ExprKind::Starred) defer("can't use starred expression here", value->span);
        s->targets = std::move(parts);
        s->value = std::move(value);
        s->span = spanFrom(start);
        return s;
    }

    StmtP parseIf() {
        Token kw = take(); // 'if' or 'elif'
        // An elif chain nests IfStmts (each elif is the orelse of the one before): bound it like
        // expression nesting, with its own counter.
        if (openIfs_ >= kMaxDepth) raiseAt(kw, "too many 'elif' branches");
        struct Count {
            int& n;
            explicit Count(int& c) : n(++c) {}
            ~Count() { --n; }
        } count(openIfs_);
        auto s = std::make_unique<IfStmt>();
        Token condStart = peek();
        s->test = parseNamedExpression();
        checkStrayEquals(*s->test, condStart);
        expectColon(false);
        parseBlock(s->body, kw.kw == Kw::Elif ? "'elif' statement" : "'if' statement", kw.line);
        Token t = peek();
        if (isKw(t, Kw::Elif)) {
            s->orelse.push_back(parseIf());
        } else if (isKw(t, Kw::Else)) {
            take();
            expectColon(true);
            parseBlock(s->orelse, "'else' statement", t.line);
        }
        s->span = spanFrom(kw);
        return s;
    }

    void parseLoopBody(Body& out, const char* what, int line) {
        bool saved = scope_.inLoop;
        scope_.inLoop = true;
        parseBlock(out, what, line);
        scope_.inLoop = saved;
    }

    void parseElse(Body& out) {
        Token t = peek();
        if (!isKw(t, Kw::Else)) return;
        take();
        expectColon(true);
        parseBlock(out, "'else' statement", t.line);
    }

    FL_NOINLINE StmtP parseWhile() {
        Token w = take();
        auto s = std::make_unique<WhileStmt>();
        Token condStart = peek();
        s->test = parseNamedExpression();
        checkStrayEquals(*s->test, condStart);
        expectColon(false);
        parseLoopBody(s->body, "'while' statement", w.line);
        parseElse(s->orelse);
        s->span = spanFrom(w);
        return s;
    }

    // star_targets: '*'? target (',' '*'? target)* [','], parsed at bitwise_or level so that
    // the `in` of a for loop is not taken as a comparison.
    ExprP parseTargetList() {
        Token start = peek();
        auto one = [&]() -> ExprP {
            Token t = peek();
            if (isOp(t, Op::Star)) {
                take();
                auto s = std::make_unique<StarredExpr>();
                s->value = parseBinary(1);
                s->span = spanFrom(t);
                return s;
            }
            return parseBinary(1);
        };
        ExprP first = one();
        if (!isOp(peek(), Op::Comma)) return first;
        auto tup = std::make_unique<TupleExpr>();
        tup->elts.push_back(std::move(first));
        while (isOp(peek(), Op::Comma)) {
            take();
            Token t = peek();
            if (!startsExpression(t) && !isOp(t, Op::Star)) break;
            tup->elts.push_back(one());
        }
        tup->span = spanFrom(start);
        return tup;
    }

    FL_NOINLINE StmtP parseFor() {
        Token f = take();
        auto s = std::make_unique<ForStmt>();
        s->target = parseTargetList();
        if (!isKw(peek(), Kw::In)) unexpectedAfter(lastElement(*s->target), peek());
        take();
        toTarget(*s->target, TargetUse::For);
        s->iter = parseValue();
        expectColon(false);
        parseLoopBody(s->body, "'for' statement", f.line);
        parseElse(s->orelse);
        s->span = spanFrom(f);
        return s;
    }

    FL_NOINLINE StmtP parseTry() {
        Token t = take();
        auto s = std::make_unique<TryStmt>();
        expectColon(true);
        parseBlock(s->body, "'try' statement", t.line);
        while (isKw(peek(), Kw::Except)) {
            Token e = take();
            ExceptHandler h;
            if (!isOp(peek(), Op::Colon) && peek().kind != TokKind::Newline) {
                if (isOp(peek(), Op::Star)) invalidSyntax(peek()); // except* (exception groups)
                h.type = parseExpression();
                if (isOp(peek(), Op::Comma)) raiseAt(*h.type, "multiple exception types must be parenthesized");
                if (isKw(peek(), Kw::As)) {
                    take();
                    h.name = expectName();
                }
            }
            expectColon(false);
            parseBlock(h.body, "'except' statement", e.line);
            h.span = spanFrom(e);
            if (!s->handlers.empty() && !s->handlers.back().type)
                defer("default 'except:' must be last", s->handlers.back().span);
            s->handlers.push_back(std::move(h));
        }
        if (!s->handlers.empty()) parseElse(s->orelse);
        if (isKw(peek(), Kw::Finally)) {
            Token f = take();
            expectColon(true);
            parseBlock(s->finalbody, "'finally' statement", f.line);
        }
        if (s->handlers.empty() && s->finalbody.empty())
            raiseAt(peek(), "expected 'except' or 'finally' block");
        s->span = spanFrom(t);
        return s;
    }

    WithItem parseWithItem() {
        WithItem item;
        item.contextExpr = parseExpression();
        if (isKw(peek(), Kw::As)) {
            take();
            ExprP target = parseTargetAtom();
            toTarget(*target, TargetUse::Store);
            item.optionalVars = std::move(target);
        }
        return item;
    }

    // A single (possibly starred) target: `with ... as t`.
    ExprP parseTargetAtom() {
        Token t = peek();
        if (isOp(t, Op::Star)) {
            take();
            auto s = std::make_unique<StarredExpr>();
            s->value = parseBinary(1);
            s->span = spanFrom(t);
            return s;
        }
        return parseExpression();
    }

    FL_NOINLINE StmtP parseWith() {
        Token w = take();
        auto s = std::make_unique<WithStmt>();
        bool done = false;
        if (isOp(peek(), Op::LPar)) {
            // `with (a as b, c):` – parenthesized items, told apart from a parenthesized
            // expression `with (a, b) as c:` only by the ':' after the ')'. Try it, else rewind.
            Mark m = mark();
            std::vector<WithItem> items;
            bool missingColon = false;
            try {
                take();
                for (;;) {
                    items.push_back(parseWithItem());
                    if (isOp(peek(), Op::Comma)) {
                        take();
                        if (isOp(peek(), Op::RPar)) break;
                        continue;
                    }
                    break;
                }
                expectOp(Op::RPar);
                done = isOp(peek(), Op::Colon);
                missingColon = peek().kind == TokKind::Newline;
            } catch (const SyntaxError&) {
                done = false;
            }
            if (missingColon) {
                release();
                raiseAt(peek(), "expected ':'");
            }
            if (done) {
                s->items = std::move(items);
            } else {
                rewind(m);
            }
            release();
        }
        if (!done) {
            for (;;) {
                s->items.push_back(parseWithItem());
                if (!isOp(peek(), Op::Comma)) break;
                take();
            }
        }
        expectColon(false);
        parseBlock(s->body, "'with' statement", w.line);
        s->span = spanFrom(w);
        return s;
    }

    FL_NOINLINE StmtP parseDecorated() {
        std::vector<ExprP> decorators;
        while (isOp(peek(), Op::At)) {
            take();
            Token start = peek();
            ExprP d = parseNamedExpression();
            checkStrayEquals(*d, start);
            decorators.push_back(std::move(d));
            Token t = peek();
            if (t.kind != TokKind::Newline) unexpectedAfter(decorators.back().get(), t);
            take();
        }
        Token t = peek();
        if (isKw(t, Kw::Def)) return parseFunctionDef(std::move(decorators));
        if (isKw(t, Kw::Class)) return parseClassDef(std::move(decorators));
        if (isKw(t, Kw::Async)) unsupported(t);
        invalidSyntax(t);
    }

    Arg parseParam(bool annotations) {
        Token t = peek();
        if (!isPlainName(t)) invalidSyntax(t);
        take();
        Arg a;
        a.name = std::string(ts_->lex->text(t));
        if (annotations && isOp(peek(), Op::Colon)) {
            take();
            a.annotation = parseExpression();
        }
        a.span = spanFrom(t);
        return a;
    }

    // Parameters of a def (up to ')') or a lambda (up to ':').
    FL_NOINLINE void parseParameters(Arguments& a, bool isLambda) {
        Op close = isLambda ? Op::Colon : Op::RPar;
        bool seenSlash = false, seenStar = false, seenDefault = false;
        std::optional<Token> bareStar;
        std::vector<std::pair<std::string, Span>> names;
        while (!isOp(peek(), close)) {
            Token t = peek();
            if (isOp(t, Op::Slash)) {
                take();
                if (seenStar) raiseAt(t, "/ must be ahead of *");
                if (seenSlash) raiseAt(t, "/ may appear only once");
                if (a.args.empty()) raiseAt(t, "at least one argument must precede /");
                seenSlash = true;
                a.posonly = a.args.size();
            } else if (isOp(t, Op::Star)) {
                take();
                if (seenStar) raiseAt(t, "* argument may appear only once");
                seenStar = true;
                if (isOp(peek(), Op::Comma) || isOp(peek(), close)) {
                    bareStar = t;
                } else {
                    a.vararg = std::make_unique<Arg>(parseParam(!isLambda));
                    names.emplace_back(a.vararg->name, a.vararg->span);
                    if (isOp(peek(), Op::Equal)) raiseAt(peek(), "var-positional argument cannot have default value");
                }
            } else if (isOp(t, Op::DoubleStar)) {
                take();
                a.kwarg = std::make_unique<Arg>(parseParam(!isLambda));
                names.emplace_back(a.kwarg->name, a.kwarg->span);
                if (isOp(peek(), Op::Equal)) raiseAt(peek(), "var-keyword argument cannot have default value");
                if (isOp(peek(), Op::Comma)) take();
                if (!isOp(peek(), close)) {
                    Token n = peek();
                    if (isPlainName(n) || isOp(n, Op::Star) || isOp(n, Op::DoubleStar) || isOp(n, Op::Slash))
                        raiseAt(n, "arguments cannot follow var-keyword argument");
                    invalidSyntax(n);
                }
                break;
            } else {
                Arg arg = parseParam(!isLambda);
                names.emplace_back(arg.name, arg.span);
                ExprP def;
                if (isOp(peek(), Op::Equal)) {
                    // A default sits below this function's large frame: count it as several
                    // levels so that `lambda a=lambda a=...` stays within a modest stack.
                    DepthGuard guard(*this);
                    for (int k = 0; k < 4; k++) guard.bump(peek());
                    take();
                    def = parseExpression();
                }
                if (seenStar) {
                    a.kwonly.push_back(std::move(arg));
                    a.kwDefaults.push_back(std::move(def));
                } else {
                    if (def) {
                        seenDefault = true;
                        a.defaults.push_back(std::move(def));
                    } else if (seenDefault) {
                        raise(makeError("non-default argument follows default argument", arg.span.line, arg.span.col));
                    }
                    a.args.push_back(std::move(arg));
                }
            }
            if (isOp(peek(), close)) break;
            if (!isOp(peek(), Op::Comma)) invalidSyntax(peek());
            take();
        }
        if (bareStar && a.kwonly.empty()) raiseAt(*bareStar, "named arguments must follow bare *");
        std::unordered_set<std::string_view> seen;
        for (const auto& [name, span] : names)
            if (!seen.insert(name).second) {
                defer("duplicate argument '" + name + "' in function definition", span);
                break;
            }
    }

    FL_NOINLINE StmtP parseFunctionDef(std::vector<ExprP> decorators) {
        Token d = take();
        auto s = std::make_unique<FunctionDefStmt>();
        s->decorators = std::move(decorators);
        s->name = expectName();
        if (!isOp(peek(), Op::LPar)) raiseAt(peek(), "expected '('");
        take();
        parseParameters(s->args, false);
        expectOp(Op::RPar);
        if (isOp(peek(), Op::RArrow)) {
            // No annotation after '->': CPython's forced ':' reports at the arrow.
            if (!startsExpression(peek(1))) raiseAt(peek(), "expected ':'");
            take();
            s->returns = parseExpression();
        }
        expectColon(true);
        Scope saved = scope_;
        scope_ = Scope{true, false, false};
        parseBlock(s->body, "function definition", d.line);
        s->isGenerator = scope_.sawYield;
        scope_ = saved;
        s->span = spanFrom(d);
        return s;
    }

    FL_NOINLINE StmtP parseClassDef(std::vector<ExprP> decorators) {
        Token c = take();
        auto s = std::make_unique<ClassDefStmt>();
        s->decorators = std::move(decorators);
        s->name = expectName();
        if (isOp(peek(), Op::LPar)) {
            Token open = take();
            parseArguments(s->bases, s->keywords, false, open);
            expectOp(Op::RPar);
        }
        expectColon(false);
        Scope saved = scope_;
        scope_ = Scope{false, false, false};
        parseBlock(s->body, "class definition", c.line);
        scope_ = saved;
        s->span = spanFrom(c);
        return s;
    }

    // ------------------------------------------------------------ match statements
    std::string_view textOf(const Token& t) const { return ts_->lex->text(t); }
    bool isSoftKw(const Token& t, std::string_view word) const { return isPlainName(t) && textOf(t) == word; }

    // `match` is a soft keyword: the line is a match statement only when a subject follows it and
    // the line ends with ':' (CPython's rule); otherwise `match` is a name (`match = re.match(p, s)`).
    FL_NOINLINE bool tryParseMatch(Body& out) {
        Token kw = peek();
        if (!isSoftKw(kw, "match")) return false;
        if (!startsExpression(peek(1)) && !isOp(peek(1), Op::Star)) return false;
        Mark m = keep();
        take();
        ExprP subject;
        try {
            subject = parseSubject();
        } catch (const SyntaxError&) {
        }
        if (subject && isOp(peek(), Op::Colon) && peek(1).kind == TokKind::Newline) {
            unkeep();
            out.push_back(parseMatch(kw, std::move(subject)));
            return true;
        }
        bool endsLine = subject && peek().kind == TokKind::Newline;
        Token lineEnd = peek();
        rewind(m);
        unkeep();
        if (!endsLine) return false;
        // `match x` alone on a line: unless it is a statement after all (`match(x)`), the ':' is missing
        try {
            parseSimpleStatements(out);
        } catch (const SyntaxError&) {
            raiseAt(lineEnd, "expected ':'");
        }
        return true;
    }

    // subject_expr: star_named_expression ',' star_named_expressions? | named_expression
    FL_NOINLINE ExprP parseSubject() {
        Token start = peek();
        ExprP first = parseElement();
        if (!isOp(peek(), Op::Comma)) {
            if (first->kind == ExprKind::Starred) invalidSyntax(peek());
            return first;
        }
        auto tup = std::make_unique<TupleExpr>();
        tup->elts.push_back(std::move(first));
        while (isOp(peek(), Op::Comma)) {
            take();
            if (!startsExpression(peek()) && !isOp(peek(), Op::Star)) break;
            tup->elts.push_back(parseElement());
        }
        tup->span = spanFrom(start);
        return tup;
    }

    // After `match subject`: ':' NEWLINE INDENT case_block+ DEDENT.
    FL_NOINLINE StmtP parseMatch(const Token& kw, ExprP subject) {
        auto s = std::make_unique<MatchStmt>();
        s->subject = std::move(subject);
        take(); // ':'
        take(); // NEWLINE
        Token t = peek();
        if (t.kind != TokKind::Indent)
            raise(makeError("expected an indented block after 'match' statement on line " + std::to_string(kw.line),
                            t.line, t.col, "IndentationError"));
        take();
        do {
            s->cases.push_back(parseCase());
        } while (peek().kind != TokKind::Dedent);
        take();
        s->span = spanFrom(kw);
        return s;
    }

    // "case" patterns guard? ':' block. The compiler's checks on the pattern are deferred errors
    // that come before any in the case's body; whether an irrefutable pattern is allowed depends
    // on whether another case follows, which is only known after the body.
    FL_NOINLINE MatchCase parseCase() {
        Token kw = peek();
        if (!isSoftKw(kw, "case")) invalidSyntax(kw);
        take();
        MatchCase c;
        c.pattern = parsePatterns();
        if (isKw(peek(), Kw::If)) {
            take();
            c.guard = parseNamedExpression();
        }
        Token t = peek();
        if (t.kind == TokKind::Newline) raiseAt(t, "expected ':'");
        if (!isOp(t, Op::Colon)) invalidSyntax(t);
        take();
        c.span = spanFrom(kw);
        std::optional<PatternError> ifLast = checkPattern(*c.pattern, true);
        std::optional<PatternError> ifNotLast = c.guard ? ifLast : checkPattern(*c.pattern, false);
        bool deferredBefore = deferred_.has_value();
        parseBlock(c.body, "'case' statement", kw.line);
        const std::optional<PatternError>& err = peek().kind == TokKind::Dedent ? ifLast : ifNotLast;
        if (err && !deferredBefore) deferred_ = makeError(err->message, err->at.line, err->at.col);
        return c;
    }

    static std::optional<PatternError> checkPattern(const Pattern& p, bool allowIrrefutable) {
        try {
            PatternCheck().check(p, allowIrrefutable);
        } catch (const PatternError& e) {
            return e;
        }
        return std::nullopt;
    }

    static bool startsPattern(const Token& t) {
        switch (t.kind) {
        case TokKind::Name: return t.kw == Kw::NotKw || t.kw == Kw::None || t.kw == Kw::True || t.kw == Kw::False;
        case TokKind::Number:
        case TokKind::String: return true;
        case TokKind::Op:
            return t.op == Op::Minus || t.op == Op::LPar || t.op == Op::LSqb || t.op == Op::LBrace || t.op == Op::Star;
        default: return false;
        }
    }

    // patterns: open_sequence_pattern | pattern (`case a, *rest:` is a sequence without brackets)
    FL_NOINLINE PatternP parsePatterns() {
        Token start = peek();
        PatternP first = parseMaybeStarPattern();
        if (!isOp(peek(), Op::Comma)) {
            if (first->kind == PatternKind::Star) invalidSyntax(peek());
            return first;
        }
        auto seq = std::make_unique<SequencePattern>();
        seq->patterns.push_back(std::move(first));
        while (isOp(peek(), Op::Comma)) {
            take();
            if (!startsPattern(peek())) break;
            seq->patterns.push_back(parseMaybeStarPattern());
        }
        seq->span = spanFrom(start);
        return seq;
    }

    // pattern: or_pattern ['as' NAME]
    FL_NOINLINE PatternP parsePattern() {
        Token start = peek();
        DepthGuard guard(*this, start);
        PatternP p = parseOrPattern();
        if (!isKw(peek(), Kw::As)) return p;
        take();
        Token t = peek();
        if (isSoftKw(t, "_")) raiseAt(t, "cannot use '_' as a target");
        if (!isPlainName(t)) {
            if (startsExpression(t)) raiseAt(t, "invalid pattern target");
            invalidSyntax(t);
        }
        take();
        auto as = makeNode<AsPattern>(spanFrom(start));
        as->pattern = std::move(p);
        as->name = std::string(textOf(t));
        return as;
    }

    FL_NOINLINE PatternP parseOrPattern() {
        Token start = peek();
        PatternP first = parseClosedPattern();
        if (!isOp(peek(), Op::VBar)) return first;
        auto o = std::make_unique<OrPattern>();
        o->patterns.push_back(std::move(first));
        while (isOp(peek(), Op::VBar)) {
            take();
            o->patterns.push_back(parseClosedPattern());
        }
        o->span = spanFrom(start);
        return o;
    }

    PatternP parseClosedPattern() {
        Token t = peek();
        if (t.kind == TokKind::Name && (t.kw == Kw::None || t.kw == Kw::True || t.kw == Kw::False)) {
            take();
            auto s = makeNode<SingletonPattern>(spanFrom(t));
            s->value = t.kw == Kw::None ? ConstKind::None : t.kw == Kw::True ? ConstKind::True : ConstKind::False;
            return s;
        }
        if (isPlainName(t)) return parseNamePattern();
        if (t.kind == TokKind::Number || t.kind == TokKind::String || isOp(t, Op::Minus)) {
            ExprP v = parseLiteralExpr();
            auto p = makeNode<ValuePattern>(v->span);
            p->value = std::move(v);
            return p;
        }
        if (isOp(t, Op::LPar)) return parseParenPattern();
        if (isOp(t, Op::LSqb)) return parseSequencePattern(take(), Op::RSqb, nullptr);
        if (isOp(t, Op::LBrace)) return parseMappingPattern();
        invalidSyntax(t);
    }

    // signed_number | strings | None | True | False, and `real + imaginary` (complex numbers
    // are outside the subset: parseNumber refuses the imaginary part).
    FL_NOINLINE ExprP parseLiteralExpr() {
        Token t = peek();
        if (t.kind == TokKind::String) return parseStrings();
        if (t.kind == TokKind::Name && (t.kw == Kw::None || t.kw == Kw::True || t.kw == Kw::False)) return parseAtom();
        ExprP num;
        if (isOp(t, Op::Minus)) {
            take();
            if (peek().kind != TokKind::Number) invalidSyntax(peek());
            auto u = std::make_unique<UnaryOpExpr>();
            u->op = UnaryOpKind::USub;
            u->operand = parseNumber(take());
            u->span = spanFrom(t);
            num = std::move(u);
        } else {
            if (t.kind != TokKind::Number) invalidSyntax(t);
            num = parseNumber(take());
        }
        if (!isOp(peek(), Op::Plus) && !isOp(peek(), Op::Minus)) return num;
        take();
        Token im = peek();
        if (im.kind != TokKind::Number) invalidSyntax(im);
        (void)parseNumber(im); // an imaginary part is refused there
        raiseAt(im, "imaginary number required in complex literal");
    }

    // A name or dotted name (Load context): a capture, the wildcard, a value or a class.
    FL_NOINLINE ExprP parseNameOrAttr() {
        DepthGuard guard(*this);
        ExprP e = parseAtom();
        while (isOp(peek(), Op::Dot)) {
            guard.bump(peek());
            take();
            Token n = peek();
            if (!isPlainName(n)) invalidSyntax(n);
            take();
            auto a = makeNode<AttributeExpr>(spanFrom(*e));
            a->attr = std::string(textOf(n));
            a->value = std::move(e);
            e = std::move(a);
        }
        return e;
    }

    FL_NOINLINE PatternP parseNamePattern() {
        Token start = peek();
        ExprP name = parseNameOrAttr();
        if (isOp(peek(), Op::LPar)) return parseClassPattern(std::move(name), start);
        if (name->kind == ExprKind::Attribute) {
            auto p = makeNode<ValuePattern>(name->span);
            p->value = std::move(name);
            return p;
        }
        auto as = makeNode<AsPattern>(name->span);
        const std::string& id = static_cast<const NameExpr&>(*name).id;
        if (id != "_") as->name = id;
        return as;
    }

    // name_or_attr '(' [positional patterns] [keyword patterns] ')'
    FL_NOINLINE PatternP parseClassPattern(ExprP cls, const Token& start) {
        take(); // '('
        auto c = std::make_unique<ClassPattern>();
        c->cls = std::move(cls);
        while (!isOp(peek(), Op::RPar)) {
            Token t = peek();
            if (isPlainName(t) && isOp(peek(1), Op::Equal)) {
                take();
                take();
                c->kwdAttrs.emplace_back(textOf(t));
                c->kwdPatterns.push_back(parsePattern());
            } else {
                PatternP p = parsePattern();
                if (!c->kwdAttrs.empty()) raise(makeError("positional patterns follow keyword patterns", p->span.line, p->span.col));
                c->patterns.push_back(std::move(p));
            }
            if (isOp(peek(), Op::RPar)) break;
            if (!isOp(peek(), Op::Comma)) invalidSyntax(peek());
            take();
        }
        take();
        c->span = spanFrom(start);
        return c;
    }

    // '*' NAME inside a sequence pattern, or any pattern.
    FL_NOINLINE PatternP parseMaybeStarPattern() {
        Token t = peek();
        if (!isOp(t, Op::Star)) return parsePattern();
        take();
        Token n = peek();
        if (!isPlainName(n)) invalidSyntax(n);
        take();
        auto s = makeNode<StarPattern>(spanFrom(t));
        if (textOf(n) != "_") s->name = std::string(textOf(n));
        return s;
    }

    // '(' ')' | '(' pattern ')' (a group: the pattern itself) | '(' p ',' ... ')'
    FL_NOINLINE PatternP parseParenPattern() {
        Token open = take();
        if (isOp(peek(), Op::RPar)) {
            take();
            return makeNode<SequencePattern>(spanFrom(open));
        }
        DepthGuard guard(*this, open);
        PatternP first = parseMaybeStarPattern();
        if (isOp(peek(), Op::Comma)) return parseSequencePattern(open, Op::RPar, std::move(first));
        if (!isOp(peek(), Op::RPar) || first->kind == PatternKind::Star) invalidSyntax(peek());
        take();
        return first;
    }

    // The rest of a bracketed sequence pattern after `open` (and its first element, if read).
    FL_NOINLINE PatternP parseSequencePattern(const Token& open, Op close, PatternP first) {
        DepthGuard guard(*this, open);
        auto seq = std::make_unique<SequencePattern>();
        if (first) seq->patterns.push_back(std::move(first));
        else if (!isOp(peek(), close)) seq->patterns.push_back(parseMaybeStarPattern());
        while (isOp(peek(), Op::Comma)) {
            take();
            if (isOp(peek(), close)) break;
            seq->patterns.push_back(parseMaybeStarPattern());
        }
        if (!isOp(peek(), close)) invalidSyntax(peek());
        take();
        seq->span = spanFrom(open);
        return seq;
    }

    // '{' (key ':' pattern ',')* ['**' NAME] '}', keys literals or dotted names.
    FL_NOINLINE PatternP parseMappingPattern() {
        Token open = take();
        DepthGuard guard(*this, open);
        auto m = std::make_unique<MappingPattern>();
        while (!isOp(peek(), Op::RBrace)) {
            if (isOp(peek(), Op::DoubleStar)) {
                take();
                Token n = peek();
                if (!isPlainName(n) || textOf(n) == "_") invalidSyntax(n);
                take();
                m->rest = std::string(textOf(n));
                if (isOp(peek(), Op::Comma)) take();
                if (!isOp(peek(), Op::RBrace)) invalidSyntax(peek());
                break;
            }
            if (isPlainName(peek())) {
                ExprP key = parseNameOrAttr();
                if (key->kind != ExprKind::Attribute) invalidSyntax(peek());
                m->keys.push_back(std::move(key));
            } else {
                m->keys.push_back(parseLiteralExpr());
            }
            if (!isOp(peek(), Op::Colon)) invalidSyntax(peek());
            take();
            m->patterns.push_back(parsePattern());
            if (isOp(peek(), Op::RBrace)) break;
            if (!isOp(peek(), Op::Comma)) invalidSyntax(peek());
            take();
        }
        take();
        m->span = spanFrom(open);
        return m;
    }

    // ------------------------------------------------------------ expressions
    // star_expressions: a bare tuple when there are commas.
    ExprP parseStarExpressions(bool* bare = nullptr) {
        Token start = peek();
        ExprP first = parseStarExpression();
        if (!isOp(peek(), Op::Comma)) return first;
        if (bare) *bare = true;
        auto tup = std::make_unique<TupleExpr>();
        tup->elts.push_back(std::move(first));
        while (isOp(peek(), Op::Comma)) {
            take();
            Token t = peek();
            if (!startsExpression(t) && !isOp(t, Op::Star)) break; // trailing comma
            tup->elts.push_back(parseStarExpression());
        }
        tup->span = spanFrom(start);
        return tup;
    }

    FL_NOINLINE ExprP parseStarred() {
        Token t = take(); // '*'
        auto s = std::make_unique<StarredExpr>();
        s->value = parseBinary(1);
        s->span = spanFrom(t);
        return s;
    }

    ExprP parseStarExpression() {
        if (isOp(peek(), Op::Star)) return parseStarred();
        return parseExpression();
    }

    // star_named_expression inside a display or subscript, with the '=' diagnostics.
    ExprP parseElement() {
        Token start = peek();
        if (isOp(start, Op::Star)) return parseStarred();
        ExprP e = parseNamedExpression();
        checkStrayEquals(*e, start);
        return e;
    }

    ExprP parseNamedExpression() {
        Token t = peek();
        if (isPlainName(t) && isOp(peek(1), Op::ColonEqual)) {
            take();
            take();
            auto n = std::make_unique<NamedExprExpr>();
            n->target = std::string(ts_->lex->text(t));
            n->value = parseExpression();
            n->span = spanFrom(t);
            return n;
        }
        ExprP e = parseExpression();
        if (isOp(peek(), Op::ColonEqual)) raiseAt(*e, "cannot use assignment expressions with " + exprName(*e));
        return e;
    }

    // expression: lambda | disjunction ['if' disjunction 'else' expression]
    // (The functions on the recursive path keep few locals: each nesting level pays for them.)
    ExprP parseExpression() {
        const Token& t = peek();
        DepthGuard guard(*this, t);
        if (isKw(t, Kw::Lambda)) return parseLambda();
        int line = t.line, col = t.col;
        ExprP body = parseDisjunction();
        if (!isKw(peek(), Kw::If)) return body;
        return parseIfExpTail(std::move(body), line, col);
    }

    FL_NOINLINE ExprP parseIfExpTail(ExprP body, int line, int col) {
        take(); // 'if'
        auto e = std::make_unique<IfExpExpr>();
        Mark m = keep();
        try {
            e->test = parseDisjunction();
        } catch (const SyntaxError& err) {
            // CPython settles for the longest disjunction that parses and then wants 'else': a
            // test that breaks off with a plain syntax error after at least one atom gets
            // "expected 'else'" instead.
            bool prefixParses = false;
            if (err.message == "invalid syntax") {
                rewind(m);
                speculating_++;
                try {
                    while (isUnaryOp(peek()) || isKw(peek(), Kw::Not)) take();
                    (void)parseAtom();
                    prefixParses = true;
                } catch (const SyntaxError&) {
                }
                speculating_--;
            }
            unkeep();
            if (prefixParses) raiseAt(*body, "expected 'else' after 'if' expression");
            throw;
        }
        unkeep();
        if (!isKw(peek(), Kw::Else)) raiseAt(*body, "expected 'else' after 'if' expression");
        take();
        e->orelse = parseExpression();
        e->span = Span{line, col, last().endLine, last().endCol};
        e->body = std::move(body);
        return e;
    }

    FL_NOINLINE ExprP parseLambda() {
        Token l = take();
        auto lam = std::make_unique<LambdaExpr>();
        parseParameters(lam->args, true);
        expectOp(Op::Colon);
        ++lambdaDepth_;
        struct Leave { int& d; ~Leave() { --d; } } leave{lambdaDepth_};
        lam->body = parseExpression();
        lam->span = spanFrom(l);
        return lam;
    }

    ExprP parseBoolChain(Kw kw, BoolOpKind kind, ExprP (Parser::*operand)()) {
        int line = peek().line, col = peek().col;
        ExprP first = (this->*operand)();
        if (!isKw(peek(), kw)) return first;
        return parseBoolTail(kw, kind, operand, std::move(first), line, col);
    }

    FL_NOINLINE ExprP parseBoolTail(Kw kw, BoolOpKind kind, ExprP (Parser::*operand)(), ExprP first, int line, int col) {
        auto b = std::make_unique<BoolOpExpr>();
        b->op = kind;
        b->values.push_back(std::move(first));
        while (isKw(peek(), kw)) {
            take();
            b->values.push_back((this->*operand)());
        }
        b->span = Span{line, col, last().endLine, last().endCol};
        return b;
    }

    ExprP parseDisjunction() { return parseBoolChain(Kw::Or, BoolOpKind::Or, &Parser::parseConjunction); }
    ExprP parseConjunction() { return parseBoolChain(Kw::And, BoolOpKind::And, &Parser::parseInversion); }

    ExprP parseInversion() {
        if (!isKw(peek(), Kw::Not)) return parseComparison();
        return parseNotChain();
    }

    // 'not'* comparison, built without recursion.
    FL_NOINLINE ExprP parseNotChain() {
        DepthGuard guard(*this);
        std::vector<Token> nots;
        while (isKw(peek(), Kw::Not)) {
            guard.bump(peek());
            nots.push_back(take());
        }
        ExprP e = parseComparison();
        for (size_t i = nots.size(); i-- > 0;) {
            auto u = std::make_unique<UnaryOpExpr>();
            u->op = UnaryOpKind::Not;
            u->span = spanFrom(nots[i]);
            u->operand = std::move(e);
            e = std::move(u);
        }
        return e;
    }

    // Consumes a comparison operator if one is next.
    bool takeCompareOp(CmpOpKind& k) {
        Token t = peek();
        if (t.kind == TokKind::Op) {
            switch (t.op) {
            case Op::EqEqual: k = CmpOpKind::Eq; break;
            case Op::NotEqual: k = CmpOpKind::NotEq; break;
            case Op::Less: k = CmpOpKind::Lt; break;
            case Op::LessEqual: k = CmpOpKind::LtE; break;
            case Op::Greater: k = CmpOpKind::Gt; break;
            case Op::GreaterEqual: k = CmpOpKind::GtE; break;
            default: return false;
            }
            take();
            return true;
        }
        if (isKw(t, Kw::In)) {
            take();
            k = CmpOpKind::In;
            return true;
        }
        if (isKw(t, Kw::Is)) {
            take();
            k = CmpOpKind::Is;
            if (isKw(peek(), Kw::Not)) {
                take();
                k = CmpOpKind::IsNot;
            }
            return true;
        }
        if (isKw(t, Kw::Not) && isKw(peek(1), Kw::In)) {
            take();
            take();
            k = CmpOpKind::NotIn;
            return true;
        }
        return false;
    }

    ExprP parseComparison() {
        int line = peek().line, col = peek().col;
        ExprP left = parseBinary(1);
        CmpOpKind k;
        if (!takeCompareOp(k)) return left;
        return parseCompareTail(std::move(left), k, line, col);
    }

    FL_NOINLINE ExprP parseCompareTail(ExprP left, CmpOpKind k, int line, int col) {
        auto c = std::make_unique<CompareExpr>();
        c->left = std::move(left);
        do {
            c->ops.push_back(k);
            c->comparators.push_back(parseBinary(1));
        } while (takeCompareOp(k));
        c->span = Span{line, col, last().endLine, last().endCol};
        return c;
    }

    // Binary operator precedence: | 1, ^ 2, & 3, << >> 4, + - 5, * / // % @ 6; 0 if none.
    static int binaryPrecedence(const Token& t, BinOpKind& k) {
        if (t.kind != TokKind::Op) return 0;
        switch (t.op) {
        case Op::VBar: k = BinOpKind::BitOr; return 1;
        case Op::Circumflex: k = BinOpKind::BitXor; return 2;
        case Op::Amper: k = BinOpKind::BitAnd; return 3;
        case Op::LeftShift: k = BinOpKind::LShift; return 4;
        case Op::RightShift: k = BinOpKind::RShift; return 4;
        case Op::Plus: k = BinOpKind::Add; return 5;
        case Op::Minus: k = BinOpKind::Sub; return 5;
        case Op::Star: k = BinOpKind::Mult; return 6;
        case Op::Slash: k = BinOpKind::Div; return 6;
        case Op::DoubleSlash: k = BinOpKind::FloorDiv; return 6;
        case Op::Percent: k = BinOpKind::Mod; return 6;
        case Op::At: k = BinOpKind::MatMult; return 6;
        default: return 0;
        }
    }

    // Left-associative binary operators of precedence >= minPrec (precedence climbing).
    ExprP parseBinary(int minPrec) {
        int line = peek().line, col = peek().col;
        ExprP left = parseFactor();
        DepthGuard guard(*this);
        for (;;) {
            BinOpKind k{};
            const Token& t = peek();
            int p = binaryPrecedence(t, k);
            if (p == 0 || p < minPrec) return left;
            guard.bump(t);
            take();
            ExprP right = parseBinary(p + 1);
            auto b = std::make_unique<BinOpExpr>();
            b->op = k;
            b->span = Span{line, col, last().endLine, last().endCol};
            b->left = std::move(left);
            b->right = std::move(right);
            left = std::move(b);
        }
    }

    static bool isUnaryOp(const Token& t) {
        return t.kind == TokKind::Op && (t.op == Op::Plus || t.op == Op::Minus || t.op == Op::Tilde);
    }

    // factor: ('+' | '-' | '~') factor | power;  power: primary ['**' factor].
    ExprP parseFactor() {
        const Token& t = peek();
        if (isUnaryOp(t)) return parseFactorChain(nullptr, 0, 0);
        int line = t.line, col = t.col;
        ExprP base = parsePrimary();
        if (!isOp(peek(), Op::DoubleStar)) return base;
        return parseFactorChain(std::move(base), line, col);
    }

    // The general factor, e.g. -a ** -b ** c == -(a ** -(b ** c)): links of unary operators and
    // a primary joined by '**', read in a loop and folded from the right (no recursion, so a
    // long chain cannot exhaust the stack). `firstBase` is the already parsed first primary.
    FL_NOINLINE ExprP parseFactorChain(ExprP firstBase, int line, int col) {
        struct Link {
            size_t opsBegin, opsEnd; // this link's unary operators, in `ops`
            ExprP base;
            int line, col;           // where the primary starts
        };
        DepthGuard guard(*this);
        std::vector<Token> ops;
        std::vector<Link> links;
        for (;;) {
            Link l{ops.size(), ops.size(), nullptr, line, col};
            if (firstBase) {
                l.base = std::move(firstBase);
            } else {
                while (isUnaryOp(peek())) {
                    guard.bump(peek());
                    ops.push_back(take());
                }
                l.opsEnd = ops.size();
                l.line = peek().line;
                l.col = peek().col;
                l.base = parsePrimary();
            }
            links.push_back(std::move(l));
            if (!isOp(peek(), Op::DoubleStar)) break;
            guard.bump(peek());
            take();
        }
        // Every node built here ends where the chain does.
        const int endLine = last().endLine, endCol = last().endCol;
        ExprP e;
        for (size_t i = links.size(); i-- > 0;) {
            Link& l = links[i];
            if (e) {
                auto b = std::make_unique<BinOpExpr>();
                b->op = BinOpKind::Pow;
                b->span = Span{l.line, l.col, endLine, endCol};
                b->left = std::move(l.base);
                b->right = std::move(e);
                e = std::move(b);
            } else {
                e = std::move(l.base);
            }
            for (size_t k = l.opsEnd; k-- > l.opsBegin;) {
                const Token& op = ops[k];
                auto u = std::make_unique<UnaryOpExpr>();
                u->op = op.op == Op::Plus ? UnaryOpKind::UAdd : op.op == Op::Minus ? UnaryOpKind::USub
                                                                                    : UnaryOpKind::Invert;
                u->span = Span{op.line, op.col, endLine, endCol};
                u->operand = std::move(e);
                e = std::move(u);
            }
        }
        return e;
    }

    ExprP parsePrimary() {
        const Token& first = peek();
        if (isKw(first, Kw::Await)) unsupported(first);
        int line = first.line, col = first.col;
        ExprP e = parseAtom();
        const Token& t = peek();
        if (!isOp(t, Op::Dot) && !isOp(t, Op::LPar) && !isOp(t, Op::LSqb)) return e;
        return parseTrailers(std::move(e), line, col);
    }

    // .name, (args) and [index] after an atom, in a loop.
    FL_NOINLINE ExprP parseTrailers(ExprP e, int line, int col) {
        DepthGuard guard(*this);
        for (;;) {
            const Token& t = peek();
            if (isOp(t, Op::Dot)) {
                guard.bump(t);
                e = parseAttribute(std::move(e), line, col);
            } else if (isOp(t, Op::LPar)) {
                guard.bump(t);
                e = parseCall(std::move(e), line, col);
            } else if (isOp(t, Op::LSqb)) {
                guard.bump(t);
                e = parseSubscript(std::move(e), line, col);
            } else {
                return e;
            }
        }
    }

    FL_NOINLINE ExprP parseAttribute(ExprP value, int line, int col) {
        take(); // '.'
        const Token& n = peek();
        if (!isPlainName(n)) invalidSyntax(n);
        auto a = std::make_unique<AttributeExpr>();
        a->attr = std::string(ts_->lex->text(n));
        take();
        a->span = Span{line, col, last().endLine, last().endCol};
        a->value = std::move(value);
        return a;
    }

    FL_NOINLINE ExprP parseCall(ExprP func, int line, int col) {
        Token open = take();
        auto c = std::make_unique<CallExpr>();
        parseArguments(c->args, c->keywords, true, open);
        expectOp(Op::RPar);
        c->span = Span{line, col, last().endLine, last().endCol};
        c->func = std::move(func);
        return c;
    }

    struct ArgState {
        std::vector<ExprP>& args;
        std::vector<Keyword>& keywords;
        bool allowGenerator;
        int openLine, openCol;       // the '(' (a bare generator argument spans the parentheses)
        int firstLine = 0, firstCol = 0;
        bool seenKeyword = false, seenDoubleStar = false, generator = false;
        const Expr* lastExpr = nullptr;
    };

    // Call arguments (or class bases) up to, not including, the ')'.
    FL_NOINLINE void parseArguments(std::vector<ExprP>& args, std::vector<Keyword>& keywords, bool allowGenerator,
                                    const Token& open) {
        ArgState st{args, keywords, allowGenerator, open.line, open.col};
        st.firstLine = peek().line;
        st.firstCol = peek().col;
        while (!isOp(peek(), Op::RPar)) {
            const Token& t = peek();
            if (isOp(t, Op::Star)) {
                parseStarArg(st);
            } else if (isOp(t, Op::DoubleStar)) {
                parseDoubleStarArg(st);
            } else if (t.kind == TokKind::Name && isOp(peek(1), Op::Equal)) {
                parseKeywordArg(st);
            } else {
                parsePositionalArg(st);
                if (st.generator) return;
            }
            if (isOp(peek(), Op::Comma)) {
                take();
                continue;
            }
            if (!isOp(peek(), Op::RPar)) unexpectedAfter(st.lastExpr, peek());
        }
    }

    FL_NOINLINE void parseStarArg(ArgState& st) {
        Token t = take();
        auto s = std::make_unique<StarredExpr>();
        s->value = parseExpression();
        s->span = spanFrom(t);
        if (st.seenDoubleStar)
            raise(makeError("iterable argument unpacking follows keyword argument unpacking", st.firstLine, st.firstCol));
        st.lastExpr = s.get();
        st.args.push_back(std::move(s));
    }

    FL_NOINLINE void parseDoubleStarArg(ArgState& st) {
        Token t = take();
        Keyword k;
        k.value = parseExpression();
        k.span = spanFrom(t);
        st.seenDoubleStar = true;
        st.lastExpr = k.value.get();
        st.keywords.push_back(std::move(k));
    }

    FL_NOINLINE void parseKeywordArg(ArgState& st) {
        Token t = take();
        if (t.kw == Kw::True || t.kw == Kw::False || t.kw == Kw::None)
            raiseAt(t, "cannot assign to " + std::string(ts_->lex->text(t)));
        if (t.kw != Kw::NotKw) invalidSyntax(t);
        take(); // '='
        Keyword k;
        k.arg = std::string(ts_->lex->text(t));
        k.value = parseExpression();
        k.span = spanFrom(t);
        for (const auto& other : st.keywords)
            if (other.arg == k.arg) defer("keyword argument repeated: " + k.arg, k.span);
        st.seenKeyword = true;
        st.lastExpr = k.value.get();
        st.keywords.push_back(std::move(k));
    }

    FL_NOINLINE void parsePositionalArg(ArgState& st) {
        ExprP e = parseNamedExpression();
        if (isKw(peek(), Kw::For)) {
            parseGeneratorArg(st, std::move(e));
            return;
        }
        if (isOp(peek(), Op::Equal)) raiseAt(*e, "expression cannot contain assignment, perhaps you meant \"==\"?");
        if (st.seenDoubleStar) raiseAt(*e, "positional argument follows keyword argument unpacking");
        if (st.seenKeyword) raiseAt(*e, "positional argument follows keyword argument");
        st.lastExpr = e.get();
        st.args.push_back(std::move(e));
    }

    // A bare generator argument, f(x for x in y): it must be the only argument, and its span is
    // the call's parentheses.
    FL_NOINLINE void parseGeneratorArg(ArgState& st, ExprP elt) {
        if (!st.allowGenerator) invalidSyntax(peek());
        auto g = std::make_unique<CompExpr>(ExprKind::GeneratorExp);
        Span eltSpan = elt->span;
        g->elt = std::move(elt);
        parseComprehensions(g->generators);
        if (!st.args.empty() || !st.keywords.empty() || isOp(peek(), Op::Comma))
            raise(makeError("Generator expression must be parenthesized", eltSpan.line, eltSpan.col));
        if (!isOp(peek(), Op::RPar)) invalidSyntax(peek());
        const Token& close = peek();
        g->span = Span{st.openLine, st.openCol, close.endLine, close.endCol};
        banYields(g->span, g->generators.empty() ? nullptr : g->generators[0].iter.get(), "generator expression");
        st.args.push_back(std::move(g));
        st.generator = true;
    }

    FL_NOINLINE ExprP parseSubscript(ExprP value, int line, int col) {
        take(); // '['
        Token start = peek();
        ExprP first = parseSliceItem();
        ExprP index;
        bool ownTuple = true; // the index is a tuple built here (never empty), not one the user wrote
        if (isOp(peek(), Op::Comma)) {
            auto tup = std::make_unique<TupleExpr>();
            tup->elts.push_back(std::move(first));
            while (isOp(peek(), Op::Comma)) {
                take();
                if (isOp(peek(), Op::RSqb)) break;
                tup->elts.push_back(parseSliceItem());
            }
            tup->span = spanFrom(start);
            index = std::move(tup);
        } else if (first->kind == ExprKind::Starred) {
            // a[*b] indexes with a one-element tuple
            auto tup = makeNode<TupleExpr>(first->span);
            tup->elts.push_back(std::move(first));
            index = std::move(tup);
        } else {
            index = std::move(first);
            ownTuple = false;
        }
        Token t = peek();
        if (!isOp(t, Op::RSqb)) {
            // x[a, b c] points at b; x[(a, b) c] and x[() c] at the parenthesized tuple, as CPython
            const Expr* lastExpr = index.get();
            if (ownTuple) lastExpr = static_cast<TupleExpr&>(*index).elts.back().get();
            unexpectedAfter(lastExpr->kind == ExprKind::Slice ? nullptr : lastExpr, t);
        }
        take();
        auto s = std::make_unique<SubscriptExpr>();
        s->span = Span{line, col, last().endLine, last().endCol};
        s->value = std::move(value);
        s->slice = std::move(index);
        return s;
    }

    bool atSliceEnd() {
        Token t = peek();
        return isOp(t, Op::Colon) || isOp(t, Op::Comma) || isOp(t, Op::RSqb);
    }

    FL_NOINLINE ExprP parseSliceItem() {
        Token start = peek();
        if (isOp(start, Op::Star)) return parseStarred();
        ExprP lower;
        if (!isOp(start, Op::Colon)) {
            lower = parseNamedExpression();
            checkStrayEquals(*lower, start);
            if (!isOp(peek(), Op::Colon)) return lower;
        }
        take(); // ':'
        auto s = std::make_unique<SliceExpr>();
        s->lower = std::move(lower);
        if (!atSliceEnd()) s->upper = parseExpression();
        if (isOp(peek(), Op::Colon)) {
            take();
            if (!atSliceEnd()) s->step = parseExpression();
        }
        s->span = spanFrom(start);
        return s;
    }

    // 'for' targets 'in' disjunction ('if' disjunction)*, repeated.
    FL_NOINLINE void parseComprehensions(std::vector<Comprehension>& gens) {
        for (;;) {
            Token t = peek();
            if (isKw(t, Kw::Async)) unsupported(t);
            if (!isKw(t, Kw::For)) return;
            take();
            Comprehension c;
            c.target = parseTargetList();
            if (!isKw(peek(), Kw::In)) unexpectedAfter(lastElement(*c.target), peek());
            take();
            toTarget(*c.target, TargetUse::For);
            c.iter = parseDisjunction();
            while (isKw(peek(), Kw::If)) {
                take();
                c.ifs.push_back(parseDisjunction());
            }
            gens.push_back(std::move(c));
        }
    }

    FL_NOINLINE ExprP parseComprehension(ExprKind kind, ExprP elt, const Token& open, Op close) {
        if (elt->kind == ExprKind::Starred) raiseAt(*elt, "iterable unpacking cannot be used in comprehension");
        auto c = std::make_unique<CompExpr>(kind);
        c->elt = std::move(elt);
        parseComprehensions(c->generators);
        expectOp(close);
        c->span = spanFrom(open);
        banYields(c->span, c->generators.empty() ? nullptr : c->generators[0].iter.get(),
                  kind == ExprKind::ListComp ? "list comprehension" : kind == ExprKind::SetComp ? "set comprehension" : "generator expression");
        return c;
    }

    // Elements after the first of a list / tuple / set display, through the closing bracket.
    FL_NOINLINE void parseMoreElements(std::vector<ExprP>& elts, Op close) {
        while (isOp(peek(), Op::Comma)) {
            take();
            if (isOp(peek(), close)) break;
            elts.push_back(parseElement());
        }
        Token t = peek();
        if (!isOp(t, close)) unexpectedAfter(elts.back().get(), t);
        take();
    }

    FL_NOINLINE ExprP parseParen() {
        Token open = take();
        if (isOp(peek(), Op::RPar)) {
            take();
            return makeNode<TupleExpr>(spanFrom(open));
        }
        if (isKw(peek(), Kw::Yield)) {
            ExprP y = parseYield();
            expectOp(Op::RPar);
            y->span = spanFrom(open); // CPython's node spans the yield only; ours the parentheses
            return y;
        }
        ExprP first = parseElement();
        if (isKw(peek(), Kw::For)) return parseComprehension(ExprKind::GeneratorExp, std::move(first), open, Op::RPar);
        if (isOp(peek(), Op::Comma)) {
            auto tup = std::make_unique<TupleExpr>();
            tup->elts.push_back(std::move(first));
            parseMoreElements(tup->elts, Op::RPar);
            tup->span = spanFrom(open);
            return tup;
        }
        Token t = peek();
        if (!isOp(t, Op::RPar)) unexpectedAfter(first.get(), t);
        take();
        if (first->kind == ExprKind::Starred) raiseAt(*first, "cannot use starred expression here");
        return first; // a parenthesized expression keeps its own span, as in CPython
    }

    FL_NOINLINE ExprP parseListDisplay() {
        Token open = take();
        if (isOp(peek(), Op::RSqb)) {
            take();
            return makeNode<ListExpr>(spanFrom(open));
        }
        ExprP first = parseElement();
        if (isKw(peek(), Kw::For)) return parseComprehension(ExprKind::ListComp, std::move(first), open, Op::RSqb);
        auto l = std::make_unique<ListExpr>();
        l->elts.push_back(std::move(first));
        parseMoreElements(l->elts, Op::RSqb);
        l->span = spanFrom(open);
        return l;
    }

    // One `key: value` or `**mapping` entry of a dict display.
    FL_NOINLINE void parseDictEntry(DictExpr& d) {
        Token t = peek();
        if (isOp(t, Op::DoubleStar)) {
            take();
            d.keys.push_back(nullptr);
            d.values.push_back(parseBinary(1));
            return;
        }
        ExprP key = parseExpression();
        if (!isOp(peek(), Op::Colon)) raiseAt(*key, "':' expected after dictionary key");
        take();
        d.keys.push_back(std::move(key));
        d.values.push_back(parseDictValue());
    }

    ExprP parseDictValue() {
        if (isOp(peek(), Op::Star)) raiseAt(peek(), "cannot use a starred expression in a dictionary value");
        return parseExpression();
    }

    FL_NOINLINE ExprP parseBraceDisplay() {
        Token open = take();
        if (isOp(peek(), Op::RBrace)) {
            take();
            return makeNode<DictExpr>(spanFrom(open));
        }
        if (isOp(peek(), Op::DoubleStar)) {
            auto d = std::make_unique<DictExpr>();
            parseDictEntry(*d);
            if (isKw(peek(), Kw::For)) raiseAt(open, "dict unpacking cannot be used in dict comprehension");
            return finishDict(std::move(d), open);
        }
        bool bareWalrus = isPlainName(peek()) && isOp(peek(1), Op::ColonEqual);
        ExprP first = parseElement();
        if (isOp(peek(), Op::Colon) && first->kind != ExprKind::Starred && !bareWalrus) {
            take();
            ExprP value = parseDictValue();
            if (isKw(peek(), Kw::For)) {
                auto c = std::make_unique<CompExpr>(ExprKind::DictComp);
                c->key = std::move(first);
                c->value = std::move(value);
                parseComprehensions(c->generators);
                expectOp(Op::RBrace);
                c->span = spanFrom(open);
                banYields(c->span, c->generators.empty() ? nullptr : c->generators[0].iter.get(), "dict comprehension");
                return c;
            }
            auto d = std::make_unique<DictExpr>();
            d->keys.push_back(std::move(first));
            d->values.push_back(std::move(value));
            return finishDict(std::move(d), open);
        }
        if (isKw(peek(), Kw::For)) return parseComprehension(ExprKind::SetComp, std::move(first), open, Op::RBrace);
        auto s = std::make_unique<SetExpr>();
        s->elts.push_back(std::move(first));
        parseMoreElements(s->elts, Op::RBrace);
        s->span = spanFrom(open);
        return s;
    }

    FL_NOINLINE ExprP finishDict(std::unique_ptr<DictExpr> d, const Token& open) {
        while (isOp(peek(), Op::Comma)) {
            take();
            if (isOp(peek(), Op::RBrace)) break;
            parseDictEntry(*d);
        }
        Token t = peek();
        if (!isOp(t, Op::RBrace)) unexpectedAfter(d->values.back().get(), t);
        take();
        d->span = spanFrom(open);
        return d;
    }

    ExprP parseAtom() {
        Token t = peek();
        switch (t.kind) {
        case TokKind::Name:
            switch (t.kw) {
            case Kw::NotKw: {
                take();
                auto n = makeNode<NameExpr>(spanFrom(t));
                n->id = std::string(ts_->lex->text(t));
                return n;
            }
            case Kw::None:
            case Kw::True:
            case Kw::False: {
                take();
                auto c = makeNode<ConstantExpr>(spanFrom(t));
                c->ck = t.kw == Kw::None ? ConstKind::None : t.kw == Kw::True ? ConstKind::True : ConstKind::False;
                return c;
            }
            case Kw::Yield:
            case Kw::Await:
            case Kw::Async: unsupported(t);
            default: invalidSyntax(t);
            }
        case TokKind::Number: return parseNumber(take());
        case TokKind::String: return parseStrings();
        case TokKind::Op:
            switch (t.op) {
            case Op::LPar: return parseParen();
            case Op::LSqb: return parseListDisplay();
            case Op::LBrace: return parseBraceDisplay();
            case Op::Ellipsis: {
                take();
                auto c = makeNode<ConstantExpr>(spanFrom(t));
                c->ck = ConstKind::Ellipsis;
                return c;
            }
            default: invalidSyntax(t);
            }
        default: invalidSyntax(t);
        }
    }

    // ------------------------------------------------------------ numbers
    FL_NOINLINE ExprP parseNumber(const Token& t) {
        std::string_view raw = ts_->lex->text(t);
        std::string text;
        text.reserve(raw.size());
        for (char c : raw)
            if (c != '_') text.push_back(c);
        auto c = makeNode<ConstantExpr>(spanFrom(t));
        char lastCh = text.back();
        if (lastCh == 'j' || lastCh == 'J') raiseAt(t, "complex numbers are not supported");

        int base = 10;
        std::string_view digits = text;
        if (text.size() > 1 && text[0] == '0') {
            char p = static_cast<char>(text[1] | 0x20);
            if (p == 'x') base = 16;
            else if (p == 'o') base = 8;
            else if (p == 'b') base = 2;
            if (base != 10) digits = digits.substr(2);
        }
        if (base == 10 && text.find_first_of(".eE") != std::string::npos) {
            c->ck = ConstKind::Float;
            double v = 0;
            auto r = std::from_chars(text.data(), text.data() + text.size(), v);
            if (r.ec == std::errc::result_out_of_range) {
                size_t e = text.find_first_of("eE");
                bool negExp = e != std::string::npos && e + 1 < text.size() && text[e + 1] == '-';
                v = negExp ? 0.0 : std::numeric_limits<double>::infinity();
            }
            c->f = v;
            return c;
        }
        c->ck = ConstKind::Int;
        while (digits.size() > 1 && digits[0] == '0') digits.remove_prefix(1);
        if (base == 10 && digits.size() > kMaxIntDigits)
            raiseAt(t, "Exceeds the limit (4300 digits) for integer string conversion: value has " +
                           std::to_string(digits.size()) +
                           " digits; use sys.set_int_max_str_digits() to increase the limit - Consider "
                           "hexadecimal for big integer literals.");
        uint64_t v = 0;
        bool overflow = false;
        for (char ch : digits) {
            uint64_t d = static_cast<uint64_t>(hexValue(ch));
            if (v > (std::numeric_limits<uint64_t>::max() - d) / static_cast<uint64_t>(base)) {
                overflow = true;
                break;
            }
            v = v * static_cast<uint64_t>(base) + d;
        }
        if (!overflow && v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
            c->i = static_cast<int64_t>(v);
            return c;
        }
        // Out of int64 range: keep the decimal digits (Python ints are unbounded).
        c->bigInt = true;
        if (base == 10) {
            c->s = std::string(digits);
        } else {
            // Bounded so the quadratic conversion stays cheap (about 4300 decimal digits).
            size_t bitsPerDigit = base == 16 ? 4 : base == 8 ? 3 : 1;
            if (digits.size() * bitsPerDigit > 14300) raiseAt(t, "integer literal too large");
            c->s = toDecimal(digits, base);
        }
        return c;
    }

    // ------------------------------------------------------------ strings
    // Adjacent string literals, plain and f-strings, concatenated into one node.
    FL_NOINLINE ExprP parseStrings() {
        Token first = peek();
        std::vector<ExprP> parts;
        std::string literal;
        bool anyF = false, bytes = false;
        while (peek().kind == TokKind::String) {
            Token t = take();
            size_t i = t.begin;
            bool raw = false, isF = false;
            while (src_[i] != '\'' && src_[i] != '"') {
                char c = static_cast<char>(src_[i] | 0x20);
                if (c == 'r') raw = true;
                else if (c == 'f') isF = true;
                else if (c == 'b') bytes = true;
                i++;
            }
            char q = src_[i];
            size_t quoteLen = (i + 2 < t.end && src_[i + 1] == q && src_[i + 2] == q && t.end - i >= 6) ? 3 : 1;
            size_t b = i + quoteLen, e = t.end - quoteLen;
            if (!isF) {
                decodeString(b, e, raw, literal, t);
                continue;
            }
            anyF = true;
            try {
                SrcPos pos{t.begin, t.line, t.begin - static_cast<size_t>(t.col)};
                size_t cur = b;
                parseFStringBody(cur, e, raw, 0, parts, literal, pos, t);
            } catch (SyntaxError& err) {
                // Parser errors inside a replacement field say "f-string: ...", tokenizer ones
                // do not (as in CPython 3.11).
                if (!fieldLexerFailed_ && err.message.rfind("f-string", 0) != 0 && err.message.rfind("(unicode error)", 0) != 0)
                    err.message = "f-string: " + err.message;
                fieldLexerFailed_ = false;
                throw;
            }
        }
        Span span = spanFrom(first);
        if (bytes) {
            // Fuselab has no bytes type. A module that only holds a bytes literal somewhere (a
            // file-format reader in a library) still imports; evaluating the literal raises:
            // a call of the builtin `<bytes>`, a name no script can write.
            auto call = makeNode<CallExpr>(span);
            auto fn = makeNode<NameExpr>(span);
            fn->id = "<bytes>";
            call->func = std::move(fn);
            return call;
        }
        if (!anyF) {
            auto c = makeNode<ConstantExpr>(span);
            c->ck = ConstKind::Str;
            c->s = std::move(literal);
            return c;
        }
        flushLiteral(parts, literal);
        auto f = makeNode<FStringExpr>(span);
        f->parts = std::move(parts);
        setPartSpans(f->parts, span);
        return f;
    }

    // Like CPython, literal pieces and replacement fields carry the whole string's span.
    static void setPartSpans(std::vector<ExprP>& parts, const Span& span) {
        for (auto& p : parts) {
            p->span = span;
            if (p->kind == ExprKind::FString) {
                auto& f = static_cast<FStringExpr&>(*p);
                if (f.field) setPartSpans(f.field->formatSpec, span);
            }
        }
    }

    static void flushLiteral(std::vector<ExprP>& parts, std::string& literal) {
        if (literal.empty()) return;
        auto c = std::make_unique<ConstantExpr>();
        c->ck = ConstKind::Str;
        c->s = std::move(literal);
        literal.clear();
        parts.push_back(std::move(c));
    }

    [[noreturn]] void escapeError(size_t bodyBegin, size_t from, size_t to, const std::string& what, const Token& t) {
        raiseAt(t, "(unicode error) 'unicodeescape' codec can't decode bytes in position " +
                       std::to_string(from - bodyBegin) + "-" + std::to_string(to - bodyBegin) + ": " + what);
    }

    // Decodes one backslash escape at src_[i] (i < e) into out; returns the index after it.
    size_t decodeEscape(size_t i, size_t e, size_t bodyBegin, std::string& out, const Token& t) {
        if (i + 1 >= e) { // cannot happen for a well-formed token; keep the backslash
            out.push_back('\\');
            return i + 1;
        }
        char c = src_[i + 1];
        auto fixedHex = [&](int count, const char* name) -> size_t {
            uint32_t v = 0;
            size_t j = i + 2;
            for (int k = 0; k < count; k++, j++) {
                int h = j < e ? hexValue(src_[j]) : -1;
                if (h < 0) escapeError(bodyBegin, i, j < e ? j : e - 1, std::string("truncated \\") + name + " escape", t);
                v = v * 16 + static_cast<uint32_t>(h);
            }
            if (v > 0x10FFFF) escapeError(bodyBegin, i, j - 1, "illegal Unicode character", t);
            appendUtf8(out, v);
            return j;
        };
        switch (c) {
        case '\n': return i + 2; // backslash-newline joins the lines
        case '\\': out.push_back('\\'); return i + 2;
        case '\'': out.push_back('\''); return i + 2;
        case '"': out.push_back('"'); return i + 2;
        case 'a': out.push_back('\a'); return i + 2;
        case 'b': out.push_back('\b'); return i + 2;
        case 'f': out.push_back('\f'); return i + 2;
        case 'n': out.push_back('\n'); return i + 2;
        case 'r': out.push_back('\r'); return i + 2;
        case 't': out.push_back('\t'); return i + 2;
        case 'v': out.push_back('\v'); return i + 2;
        case 'x': return fixedHex(2, "xXX");
        case 'u': return fixedHex(4, "uXXXX");
        case 'U': return fixedHex(8, "UXXXXXXXX");
        case 'N': {
            size_t j = i + 2;
            if (j < e && src_[j] == '{') {
                while (j < e && src_[j] != '}') j++;
                escapeError(bodyBegin, i, j < e ? j : e - 1, "\\N{...} escapes are not supported in model scripts", t);
            }
            escapeError(bodyBegin, i, i + 1, "malformed \\N character escape", t);
        }
        default:
            if (c >= '0' && c <= '7') {
                uint32_t v = 0;
                size_t j = i + 1;
                for (int k = 0; k < 3 && j < e && src_[j] >= '0' && src_[j] <= '7'; k++, j++)
                    v = v * 8 + static_cast<uint32_t>(src_[j] - '0');
                appendUtf8(out, v);
                return j;
            }
            // Unknown escapes keep their backslash (Python only warns).
            out.push_back('\\');
            return i + 1;
        }
    }

    void decodeString(size_t b, size_t e, bool raw, std::string& out, const Token& t) {
        if (raw) {
            out.append(src_, b, e - b);
            return;
        }
        size_t i = b;
        while (i < e) {
            const void* hit = std::memchr(src_.data() + i, '\\', e - i);
            if (!hit) {
                out.append(src_, i, e - i);
                return;
            }
            size_t next = static_cast<size_t>(static_cast<const char*>(hit) - src_.data());
            out.append(src_, i, next - i);
            i = decodeEscape(next, e, b, out, t);
        }
    }

    // Moves `pos` forward to byte offset `off`, counting lines.
    void advance(SrcPos& pos, size_t off) const {
        for (size_t k = pos.off; k < off; k++)
            if (src_[k] == '\n') {
                pos.line++;
                pos.lineStart = k + 1;
            }
        pos.off = off;
    }

    [[noreturn]] void fstringError(SrcPos& pos, size_t off, const std::string& msg) {
        advance(pos, off);
        raise(makeError(msg, pos.line, static_cast<int>(off - pos.lineStart)));
    }

    // The literal text and replacement fields of an f-string body, from i up to e (or, inside a
    // format spec, up to its closing '}', where it stops with i pointing at the '}').
    void parseFStringBody(size_t& i, size_t e, bool raw, int level, std::vector<ExprP>& parts,
                          std::string& literal, SrcPos& pos, const Token& t) {
        size_t bodyBegin = i;
        while (i < e) {
            char c = src_[i];
            if (c == '\\' && !raw) {
                if (i + 1 < e && (src_[i + 1] == '{' || src_[i + 1] == '}')) {
                    literal.push_back('\\');
                    i++;
                    continue;
                }
                i = decodeEscape(i, e, bodyBegin, literal, t);
                continue;
            }
            if (c == '{' || c == '}') {
                if (level == 0 && i + 1 < e && src_[i + 1] == c) { // {{ and }}
                    literal.push_back(c);
                    i += 2;
                    continue;
                }
                if (c == '}') {
                    if (level == 0) fstringError(pos, i, "f-string: single '}' is not allowed");
                    return;
                }
                parseFStringField(i, e, raw, level, parts, literal, pos, t);
                continue;
            }
            literal.push_back(c);
            i++;
        }
    }

    void parseFStringField(size_t& i, size_t e, bool raw, int level, std::vector<ExprP>& parts,
                           std::string& literal, SrcPos& pos, const Token& t) {
        if (level >= 2) fstringError(pos, i, "f-string: expressions nested too deeply");
        i++; // '{'
        size_t exprBegin = i;
        // Find where the expression ends: the first top-level '=', '!', ':' or '}' that is not
        // part of ==, !=, <=, >=, skipping strings and bracketed parts.
        std::vector<char> brackets;
        char quote = 0;
        bool tripleQuote = false;
        for (; i < e; i++) {
            char c = src_[i];
            if (c == '\\') fstringError(pos, i, "f-string expression part cannot include a backslash");
            if (quote) {
                if (c == quote) {
                    if (!tripleQuote) quote = 0;
                    else if (i + 2 < e && src_[i + 1] == quote && src_[i + 2] == quote) {
                        quote = 0;
                        i += 2;
                    }
                }
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
                tripleQuote = i + 2 < e && src_[i + 1] == c && src_[i + 2] == c;
                if (tripleQuote) i += 2;
                continue;
            }
            if (c == '(' || c == '[' || c == '{') {
                if (brackets.size() >= 200) fstringError(pos, i, "f-string: too many nested parenthesis");
                brackets.push_back(c);
                continue;
            }
            if (c == '#') fstringError(pos, i, "f-string expression part cannot include '#'");
            if (brackets.empty() && (c == '!' || c == ':' || c == '}' || c == '=' || c == '<' || c == '>')) {
                if (c != ':' && c != '}' && i + 1 < e && src_[i + 1] == '=') {
                    i++;
                    continue;
                }
                if (c == '<' || c == '>') continue;
                break;
            }
            if (c == ')' || c == ']' || c == '}') {
                if (brackets.empty()) fstringError(pos, i, std::string("f-string: unmatched '") + c + "'");
                char open = brackets.back();
                brackets.pop_back();
                char want = open == '(' ? ')' : open == '[' ? ']' : '}';
                if (c != want)
                    fstringError(pos, i, std::string("f-string: closing parenthesis '") + c +
                                             "' does not match opening parenthesis '" + open + "'");
            }
        }
        if (quote) fstringError(pos, i, "f-string: unterminated string");
        if (!brackets.empty()) fstringError(pos, i, std::string("f-string: unmatched '") + brackets.back() + "'");
        if (i >= e) fstringError(pos, i, "f-string: expecting '}'");
        size_t exprEnd = i;
        bool blank = true;
        for (size_t k = exprBegin; k < exprEnd; k++)
            if (src_[k] != ' ' && src_[k] != '\t' && src_[k] != '\n' && src_[k] != '\f') blank = false;
        if (blank) fstringError(pos, i, "f-string: empty expression not allowed");

        advance(pos, exprBegin);
        ExprP value = parseFieldExpression(exprBegin, exprEnd, pos);

        auto field = std::make_unique<FormattedValue>();
        std::string selfDoc;
        if (src_[i] == '=') {
            i++;
            while (i < e && (src_[i] == ' ' || src_[i] == '\t' || src_[i] == '\n' || src_[i] == '\f')) i++;
            selfDoc.assign(src_, exprBegin, i - exprBegin);
            field->selfDocumenting = true;
        }
        if (i >= e) fstringError(pos, i, "f-string: expecting '}'");
        if (src_[i] == '!') {
            i++;
            if (i >= e) fstringError(pos, i, "f-string: expecting '}'");
            char conv = src_[i];
            if (conv != 's' && conv != 'r' && conv != 'a')
                fstringError(pos, i, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
            field->conversion = conv;
            i++;
        }
        if (i >= e) fstringError(pos, i, "f-string: expecting '}'");
        bool hasSpec = false;
        if (src_[i] == ':') {
            hasSpec = true;
            i++;
            std::string specLiteral;
            parseFStringBody(i, e, raw, level + 1, field->formatSpec, specLiteral, pos, t);
            flushLiteral(field->formatSpec, specLiteral);
            if (i >= e) fstringError(pos, i, "f-string: expecting '}'");
        }
        if (src_[i] != '}') fstringError(pos, i, "f-string: expecting '}'");
        i++;
        // f"{x=}" is "x=" followed by repr(x) unless a conversion or format spec is given.
        if (field->selfDocumenting && !field->conversion && !hasSpec) field->conversion = 'r';
        literal += selfDoc;
        flushLiteral(parts, literal);
        field->value = std::move(value);
        auto node = std::make_unique<FStringExpr>();
        node->field = std::move(field);
        parts.push_back(std::move(node));
    }

    // Parses the text of a replacement field where it stands in the file. CPython compiles it
    // as if it were wrapped in parentheses, so tuples, newlines and generators are allowed.
    FL_NOINLINE ExprP parseFieldExpression(size_t b, size_t e, const SrcPos& pos) {
        Lexer sub(src_, filename_, b, e, pos.line, pos.lineStart);
        Stream stream;
        stream.lex = &sub;
        Stream* saved = ts_;
        ts_ = &stream;
        struct Restore {
            Parser& p;
            Stream* s;
            Lexer& lex;
            ~Restore() {
                p.ts_ = s;
                if (lex.failed()) p.fieldLexerFailed_ = true;
            }
        } restore{*this, saved, sub};

        // A tuple or generator here spans the implicit parentheses, which CPython puts where the
        // '{' and the character after the expression are.
        SrcPos endPos = pos;
        advance(endPos, e);
        Span wrapped{pos.line, static_cast<int>(b - 1 - pos.lineStart), endPos.line,
                     static_cast<int>(e - endPos.lineStart) + 1};
        Token start = peek();
        if (isKw(start, Kw::Yield)) unsupported(start);
        ExprP first = parseElement();
        ExprP result;
        if (isKw(peek(), Kw::For)) {
            auto g = std::make_unique<CompExpr>(ExprKind::GeneratorExp);
            if (first->kind == ExprKind::Starred) raiseAt(*first, "iterable unpacking cannot be used in comprehension");
            g->elt = std::move(first);
            parseComprehensions(g->generators);
            g->span = wrapped;
            result = std::move(g);
        } else if (isOp(peek(), Op::Comma)) {
            auto tup = std::make_unique<TupleExpr>();
            tup->elts.push_back(std::move(first));
            while (isOp(peek(), Op::Comma)) {
                take();
                if (peek().kind == TokKind::End) break;
                tup->elts.push_back(parseElement());
            }
            tup->span = wrapped;
            result = std::move(tup);
        } else {
            if (first->kind == ExprKind::Starred) raiseAt(*first, "cannot use starred expression here");
            result = std::move(first);
        }
        Token t = peek();
        if (t.kind != TokKind::End) {
            const Expr* lastExpr = result.get();
            if (result->kind == ExprKind::Tuple && !static_cast<TupleExpr&>(*result).elts.empty())
                lastExpr = static_cast<TupleExpr&>(*result).elts.back().get();
            unexpectedAfter(lastExpr, t);
        }
        return result;
    }

    // ------------------------------------------------------------ state
    const std::string& src_;
    std::string filename_;
    Lexer mainLexer_;
    Stream mainStream_;
    Stream* ts_ = nullptr;
    int depth_ = 0;   // expression nesting, see DepthGuard
    int openIfs_ = 0; // IfStmts being parsed (an elif chain nests them)
    int speculating_ = 0;
    int lookAhead_ = 0; // unexpectedAfter's look-aheads in progress
    int furthestLine_ = 0; // line of the furthest token read from the file's lexer
    bool fieldLexerFailed_ = false; // the error in an f-string field came from its tokenizer
    Scope scope_;
    std::vector<Span> yieldSpans_; // every yield so far (comprehensions refuse them)
    int lambdaDepth_ = 0;          // inside a lambda's body
    std::optional<SyntaxError> deferred_;

public:
    // Bumps the nesting depth for as long as it lives (see the file comment).
    class DepthGuard {
    public:
        explicit DepthGuard(Parser& p) : p_(p), saved_(p.depth_) {}
        DepthGuard(Parser& p, const Token& t) : DepthGuard(p) { bump(t); }
        ~DepthGuard() { p_.depth_ = saved_; }
        void bump(const Token& t) {
            if (++p_.depth_ > kMaxDepth) p_.tooDeep(t);
        }
        DepthGuard(const DepthGuard&) = delete;
        DepthGuard& operator=(const DepthGuard&) = delete;

    private:
        Parser& p_;
        int saved_;
    };
};

} // namespace

std::shared_ptr<Module> parseModule(const std::string& source, const std::string& filename) {
    auto module = std::make_shared<Module>();
    module->filename = filename;
    std::string src = prepareSource(source, filename);
    module->lines = splitLines(src);
    Parser parser(src, filename);
    parser.parseFile(module->body);
    return module;
}

// ---------------------------------------------------------------- error text
std::string formatSyntaxError(const SyntaxError& e, const std::string& source) {
    std::string out = "  File \"" + e.filename + "\", line " + std::to_string(e.line) + "\n";
    // Quote the line with its leading whitespace removed, caret under the column (as CPython does).
    std::istringstream ss(source);
    std::string line;
    for (int i = 1; i <= e.line && std::getline(ss, line); ++i) {}
    if (e.line >= 1 && !line.empty()) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        size_t indent = line.find_first_not_of(" \t\f");
        if (indent == std::string::npos) indent = line.size();
        std::string shown = line.substr(indent);
        bool printable = true;
        for (unsigned char c : shown)
            if (c < 0x20 && c != '\t') printable = false;
        if (printable && shown.size() < 2000) {
            out += "    " + shown + "\n";
            int col = e.col - int(indent);
            if (col < 0) col = 0;
            if (col > int(shown.size())) col = int(shown.size());
            // count characters, not bytes, for the caret position
            int chars = 0;
            for (int i = 0; i < col; ++i)
                if ((static_cast<unsigned char>(shown[i]) & 0xC0) != 0x80) ++chars;
            out += "    " + std::string(size_t(chars), ' ') + "^\n";
        }
    }
    out += e.kind + ": " + e.message + "\n";
    return out;
}

} // namespace fl::script
