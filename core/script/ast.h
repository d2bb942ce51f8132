// The model-script AST: a Python subset. Plain structs, owned by unique_ptr, one tree per file.
// Every node carries the span it came from so errors and (later) graph nodes can point at it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fl::script {

struct Span {
    int line = 0, col = 0;        // 1-based line, 0-based column (Python's convention)
    int endLine = 0, endCol = 0;  // end is exclusive
};

struct Expr;
struct Stmt;
using ExprP = std::unique_ptr<Expr>;
using StmtP = std::unique_ptr<Stmt>;
using Body = std::vector<StmtP>;

// ---------------------------------------------------------------- expressions
enum class ExprKind {
    Name, Constant, FString, List, Tuple, Dict, Set, BinOp, UnaryOp, BoolOp, Compare, Call,
    Attribute, Subscript, Slice, Lambda, IfExp, ListComp, SetComp, DictComp, GeneratorExp,
    Starred, NamedExpr, Yield,
};

enum class Ctx { Load, Store, Del };

struct Expr {
    ExprKind kind;
    Span span;
    explicit Expr(ExprKind k) : kind(k) {}
    virtual ~Expr() = default;
};

struct NameExpr : Expr {
    std::string id;
    Ctx ctx = Ctx::Load;
    NameExpr() : Expr(ExprKind::Name) {}
};

enum class ConstKind { None, True, False, Int, Float, Str, Ellipsis };
struct ConstantExpr : Expr {
    ConstKind ck = ConstKind::None;
    int64_t i = 0;      // Int (literals beyond int64 are a SyntaxError-free "big int": bigText set)
    double f = 0;       // Float
    std::string s;      // Str (already unescaped, UTF-8), or the digits of an out-of-range Int
    bool bigInt = false;
    ConstantExpr() : Expr(ExprKind::Constant) {}
};

// f"a{x!r:>{w}}b": parts are Constant(Str) pieces and FormattedValue pieces.
struct FormattedValue {
    ExprP value;
    char conversion = 0;           // 0, 'r', 's', 'a'
    std::vector<ExprP> formatSpec; // a spec is itself an f-string's parts (Constant Str or FStringExpr)
    bool selfDocumenting = false;  // f"{x=}": the text "x=" is emitted as a Constant part before it
};
struct FStringExpr : Expr {
    // Each part is either a ConstantExpr(Str) (literal text) or an FStringExpr with exactly one
    // `field` set (a replacement field). Keeping one node type keeps the walker simple.
    std::vector<ExprP> parts;
    std::unique_ptr<FormattedValue> field; // set only on a replacement-field node
    FStringExpr() : Expr(ExprKind::FString) {}
};

struct ListExpr : Expr { std::vector<ExprP> elts; Ctx ctx = Ctx::Load; ListExpr() : Expr(ExprKind::List) {} };
struct TupleExpr : Expr { std::vector<ExprP> elts; Ctx ctx = Ctx::Load; TupleExpr() : Expr(ExprKind::Tuple) {} };
struct SetExpr : Expr { std::vector<ExprP> elts; SetExpr() : Expr(ExprKind::Set) {} };
struct DictExpr : Expr {
    std::vector<ExprP> keys;   // a null key means `**values[i]` unpacking
    std::vector<ExprP> values;
    DictExpr() : Expr(ExprKind::Dict) {}
};

// The binary operators, one row each: kind, source text, dunder stem (__add__, __radd__, __iadd__),
// and the operator module's function, which graph targets are named after (operator.or_).
#define FL_BINOPS(X)                       \
    X(Add, "+", "add", "add")              \
    X(Sub, "-", "sub", "sub")              \
    X(Mult, "*", "mul", "mul")             \
    X(MatMult, "@", "matmul", "matmul")    \
    X(Div, "/", "truediv", "truediv")      \
    X(FloorDiv, "//", "floordiv", "floordiv") \
    X(Mod, "%", "mod", "mod")              \
    X(Pow, "**", "pow", "pow")             \
    X(LShift, "<<", "lshift", "lshift")    \
    X(RShift, ">>", "rshift", "rshift")    \
    X(BitOr, "|", "or", "or_")             \
    X(BitXor, "^", "xor", "xor")           \
    X(BitAnd, "&", "and", "and_")
#define FL_BINOP_KIND(kind, text, dunder, function) kind,
enum class BinOpKind { FL_BINOPS(FL_BINOP_KIND) };
#undef FL_BINOP_KIND
const char* binOpText(BinOpKind op);     // "+", "**"
const char* binOpDunder(BinOpKind op);   // "add", "or"
const char* binOpFunction(BinOpKind op); // "add", "or_"
struct BinOpExpr : Expr {
    BinOpKind op; ExprP left, right;
    BinOpExpr() : Expr(ExprKind::BinOp), op(BinOpKind::Add) {}
};

enum class UnaryOpKind { Invert, Not, UAdd, USub };
struct UnaryOpExpr : Expr {
    UnaryOpKind op; ExprP operand;
    UnaryOpExpr() : Expr(ExprKind::UnaryOp), op(UnaryOpKind::Not) {}
};

enum class BoolOpKind { And, Or };
struct BoolOpExpr : Expr {
    BoolOpKind op; std::vector<ExprP> values; // two or more
    BoolOpExpr() : Expr(ExprKind::BoolOp), op(BoolOpKind::And) {}
};

// The comparison operators: kind, source text (ast.dump's for the word operators), and the
// operator module's function (rich comparisons only).
#define FL_CMPOPS(X)              \
    X(Eq, "==", "eq")             \
    X(NotEq, "!=", "ne")          \
    X(Lt, "<", "lt")              \
    X(LtE, "<=", "le")            \
    X(Gt, ">", "gt")              \
    X(GtE, ">=", "ge")            \
    X(Is, "is", "")               \
    X(IsNot, "is-not", "")        \
    X(In, "in", "")               \
    X(NotIn, "not-in", "")
#define FL_CMPOP_KIND(kind, text, function) kind,
enum class CmpOpKind { FL_CMPOPS(FL_CMPOP_KIND) };
#undef FL_CMPOP_KIND
const char* cmpOpText(CmpOpKind op);     // "<=", "is-not"
const char* cmpOpFunction(CmpOpKind op); // "le" ("" for is / in)
struct CompareExpr : Expr {
    ExprP left;
    std::vector<CmpOpKind> ops;
    std::vector<ExprP> comparators; // same length as ops (chained comparisons)
    CompareExpr() : Expr(ExprKind::Compare) {}
};

struct Keyword {
    std::string arg;   // empty means `**value`
    ExprP value;
    Span span;
};
struct CallExpr : Expr {
    ExprP func;
    std::vector<ExprP> args;       // a StarredExpr here means `*value`
    std::vector<Keyword> keywords;
    CallExpr() : Expr(ExprKind::Call) {}
};

struct AttributeExpr : Expr {
    ExprP value; std::string attr; Ctx ctx = Ctx::Load;
    AttributeExpr() : Expr(ExprKind::Attribute) {}
};

struct SubscriptExpr : Expr {
    // x[a], x[a:b], x[a, :, None, ...]: a multi-index is a TupleExpr whose elements may be SliceExpr
    ExprP value; ExprP slice; Ctx ctx = Ctx::Load;
    SubscriptExpr() : Expr(ExprKind::Subscript) {}
};

struct SliceExpr : Expr {
    ExprP lower, upper, step; // each may be null
    SliceExpr() : Expr(ExprKind::Slice) {}
};

struct Arg {
    std::string name;
    ExprP annotation; // parsed and ignored by the interpreter; may be null
    Span span;
};
struct Arguments {
    std::vector<Arg> args;               // positional parameters, the positional-only ones first
    size_t posonly = 0;                  // how many of args come before `/`
    std::vector<ExprP> defaults;         // for the last defaults.size() of args
    std::unique_ptr<Arg> vararg;         // *args (null if absent)
    std::vector<Arg> kwonly;             // after * or *args
    std::vector<ExprP> kwDefaults;       // same length as kwonly; null entry = required
    std::unique_ptr<Arg> kwarg;          // **kwargs
};

struct LambdaExpr : Expr {
    Arguments args; ExprP body;
    LambdaExpr() : Expr(ExprKind::Lambda) {}
};

struct IfExpExpr : Expr {
    ExprP test, body, orelse;
    IfExpExpr() : Expr(ExprKind::IfExp) {}
};

struct Comprehension {
    ExprP target;              // a Name or Tuple in Store context
    ExprP iter;
    std::vector<ExprP> ifs;
};
struct CompExpr : Expr {       // ListComp, SetComp, GeneratorExp use elt; DictComp uses key+value
    ExprP elt, key, value;
    std::vector<Comprehension> generators;
    explicit CompExpr(ExprKind k) : Expr(k) {}
};

struct StarredExpr : Expr {
    ExprP value; Ctx ctx = Ctx::Load;
    StarredExpr() : Expr(ExprKind::Starred) {}
};

struct NamedExprExpr : Expr { // (x := value)
    std::string target; ExprP value;
    NamedExprExpr() : Expr(ExprKind::NamedExpr) {}
};

struct YieldExpr : Expr { // `yield [value]` or `yield from value`
    ExprP value; // null for a bare `yield`
    bool from = false;
    YieldExpr() : Expr(ExprKind::Yield) {}
};

// ---------------------------------------------------------------- statements
enum class StmtKind {
    FunctionDef, ClassDef, Return, Delete, Assign, AugAssign, AnnAssign, For, While, If, With,
    Raise, Try, Assert, Import, ImportFrom, Global, Nonlocal, Expr, Pass, Break, Continue, Match,
};

struct Stmt {
    StmtKind kind;
    Span span;
    explicit Stmt(StmtKind k) : kind(k) {}
    virtual ~Stmt() = default;
};

struct FunctionDefStmt : Stmt {
    std::string name;
    Arguments args;
    Body body;
    std::vector<ExprP> decorators; // outermost first, as written
    ExprP returns;                 // annotation, ignored
    bool isGenerator = false;      // its body (not a nested def, lambda or class) has a yield
    FunctionDefStmt() : Stmt(StmtKind::FunctionDef) {}
};

struct ClassDefStmt : Stmt {
    std::string name;
    std::vector<ExprP> bases;
    std::vector<Keyword> keywords;
    Body body;
    std::vector<ExprP> decorators;
    ClassDefStmt() : Stmt(StmtKind::ClassDef) {}
};

struct ReturnStmt : Stmt { ExprP value; ReturnStmt() : Stmt(StmtKind::Return) {} };
struct DeleteStmt : Stmt { std::vector<ExprP> targets; DeleteStmt() : Stmt(StmtKind::Delete) {} };
struct AssignStmt : Stmt {
    std::vector<ExprP> targets; // a = b = value has two targets
    ExprP value;
    AssignStmt() : Stmt(StmtKind::Assign) {}
};
struct AugAssignStmt : Stmt {
    ExprP target; BinOpKind op = BinOpKind::Add; ExprP value;
    AugAssignStmt() : Stmt(StmtKind::AugAssign) {}
};
struct AnnAssignStmt : Stmt {
    ExprP target; ExprP annotation; ExprP value; // value may be null
    AnnAssignStmt() : Stmt(StmtKind::AnnAssign) {}
};
struct ForStmt : Stmt {
    ExprP target, iter; Body body, orelse;
    ForStmt() : Stmt(StmtKind::For) {}
};
struct WhileStmt : Stmt {
    ExprP test; Body body, orelse;
    WhileStmt() : Stmt(StmtKind::While) {}
};
struct IfStmt : Stmt {
    ExprP test; Body body, orelse; // elif is an IfStmt alone in orelse
    IfStmt() : Stmt(StmtKind::If) {}
};
struct WithItem { ExprP contextExpr; ExprP optionalVars; };
struct WithStmt : Stmt {
    std::vector<WithItem> items; Body body;
    WithStmt() : Stmt(StmtKind::With) {}
};
struct RaiseStmt : Stmt {
    ExprP exc, cause; // both may be null (bare raise)
    RaiseStmt() : Stmt(StmtKind::Raise) {}
};
struct ExceptHandler {
    ExprP type;       // null for bare except
    std::string name; // `as name`, may be empty
    Body body;
    Span span;
};
struct TryStmt : Stmt {
    Body body; std::vector<ExceptHandler> handlers; Body orelse, finalbody;
    TryStmt() : Stmt(StmtKind::Try) {}
};
struct AssertStmt : Stmt {
    ExprP test, msg;
    AssertStmt() : Stmt(StmtKind::Assert) {}
};
struct Alias {
    std::string name;   // dotted for `import a.b`
    std::string asname; // may be empty
    Span span;
};
struct ImportStmt : Stmt { std::vector<Alias> names; ImportStmt() : Stmt(StmtKind::Import) {} };
struct ImportFromStmt : Stmt {
    std::string module; // dotted; relative imports (level > 0) are a SyntaxError-free user error
    int level = 0;
    std::vector<Alias> names; // name "*" for star import
    ImportFromStmt() : Stmt(StmtKind::ImportFrom) {}
};
struct GlobalStmt : Stmt { std::vector<std::string> names; GlobalStmt() : Stmt(StmtKind::Global) {} };
struct NonlocalStmt : Stmt { std::vector<std::string> names; NonlocalStmt() : Stmt(StmtKind::Nonlocal) {} };
struct ExprStmt : Stmt { ExprP value; ExprStmt() : Stmt(StmtKind::Expr) {} };
struct PassStmt : Stmt { PassStmt() : Stmt(StmtKind::Pass) {} };
struct BreakStmt : Stmt { BreakStmt() : Stmt(StmtKind::Break) {} };
struct ContinueStmt : Stmt { ContinueStmt() : Stmt(StmtKind::Continue) {} };

// ---------------------------------------------------------------- patterns (`match` statements)
// The shapes of Python's pattern grammar, as CPython's ast module names them.
enum class PatternKind { Value, Singleton, Sequence, Mapping, Class, Star, As, Or };

struct Pattern {
    PatternKind kind;
    Span span;
    explicit Pattern(PatternKind k) : kind(k) {}
    virtual ~Pattern() = default;
};
using PatternP = std::unique_ptr<Pattern>;

// A literal (1, -2.5, "s") or a dotted name (Color.RED): matches what compares equal to it.
struct ValuePattern : Pattern { ExprP value; ValuePattern() : Pattern(PatternKind::Value) {} };
// None, True or False: matches that very object.
struct SingletonPattern : Pattern {
    ConstKind value = ConstKind::None;
    SingletonPattern() : Pattern(PatternKind::Singleton) {}
};
// [a, *rest, b] or (a, b) or a, b: at most one StarPattern among the patterns.
struct SequencePattern : Pattern {
    std::vector<PatternP> patterns;
    SequencePattern() : Pattern(PatternKind::Sequence) {}
};
// {"k": p, Color.RED: q, **rest}
struct MappingPattern : Pattern {
    std::vector<ExprP> keys;      // literals or dotted names, one per pattern
    std::vector<PatternP> patterns;
    std::string rest;             // empty: no **rest
    MappingPattern() : Pattern(PatternKind::Mapping) {}
};
// Point(x, y=0): positional sub-patterns go through the class's __match_args__.
struct ClassPattern : Pattern {
    ExprP cls;                    // a name or a dotted name
    std::vector<PatternP> patterns;
    std::vector<std::string> kwdAttrs;
    std::vector<PatternP> kwdPatterns; // same length as kwdAttrs
    ClassPattern() : Pattern(PatternKind::Class) {}
};
// *rest inside a sequence pattern (empty name: *_).
struct StarPattern : Pattern { std::string name; StarPattern() : Pattern(PatternKind::Star) {} };
// `p as name`; without a pattern, a capture (`name`), or the wildcard `_` when name is empty too.
struct AsPattern : Pattern {
    PatternP pattern;
    std::string name;
    AsPattern() : Pattern(PatternKind::As) {}
};
// p | q | ...: the first alternative that matches.
struct OrPattern : Pattern { std::vector<PatternP> patterns; OrPattern() : Pattern(PatternKind::Or) {} };

struct MatchCase {
    PatternP pattern;
    ExprP guard; // `if guard`, may be null
    Body body;
    Span span;   // the `case` line
};
struct MatchStmt : Stmt {
    ExprP subject; // several comma-separated subjects are one TupleExpr
    std::vector<MatchCase> cases;
    MatchStmt() : Stmt(StmtKind::Match) {}
};

// One parsed file. Keeps the source lines so tracebacks and carets can quote them.
struct Module {
    std::string filename;
    std::vector<std::string> lines; // without trailing newlines; lines[0] is line 1
    Body body;
};

// Thrown by the lexer and parser. Messages follow CPython's where practical
// ("invalid syntax", "unexpected indent", "'(' was never closed", ...).
struct SyntaxError {
    std::string message;
    std::string filename;
    int line = 0;  // 1-based
    int col = 0;   // 0-based; the caret goes under this column
    std::string kind = "SyntaxError"; // or "IndentationError", "TabError"
};

// Parses a whole file. Throws SyntaxError. Never crashes on any input (binary garbage, huge nesting:
// nesting deeper than 200 levels is a SyntaxError "too many nested parentheses").
std::shared_ptr<Module> parseModule(const std::string& source, const std::string& filename);

// The SyntaxError block Python prints: file and line, the line quoted, a caret under the column.
std::string formatSyntaxError(const SyntaxError& e, const std::string& source);

} // namespace fl::script
