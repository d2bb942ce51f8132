// Tokenizer for model scripts (a Python 3.11 subset). Produces tokens lazily, one at a time,
// so a 10 MB file never needs a token array of its own. Follows CPython's tokenizer closely:
// INDENT/DEDENT from an indentation stack, implicit line joining inside brackets, backslash
// continuation, and CPython's error messages for malformed numbers, strings and characters.
#pragma once

#include "core/script/ast.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fl::script {

enum class TokKind : uint8_t { Name, Number, String, Op, Newline, Indent, Dedent, End };

// Hard keywords. Soft keywords (match, case, _) are plain names here.
enum class Kw : uint8_t {
    NotKw, False, None, True, And, As, Assert, Async, Await, Break, Class, Continue, Def, Del,
    Elif, Else, Except, Finally, For, From, Global, If, Import, In, Is, Lambda, Nonlocal, Not,
    Or, Pass, Raise, Return, Try, While, With, Yield,
};

enum class Op : uint8_t {
    None,
    LPar, RPar, LSqb, RSqb, LBrace, RBrace,
    Colon, Comma, Semi, Dot, Ellipsis, At, RArrow, ColonEqual, Equal,
    Plus, Minus, Star, Slash, DoubleSlash, Percent, DoubleStar,
    VBar, Amper, Circumflex, Tilde, LeftShift, RightShift,
    Less, Greater, EqEqual, NotEqual, LessEqual, GreaterEqual,
    PlusEqual, MinusEqual, StarEqual, SlashEqual, DoubleSlashEqual, PercentEqual, AtEqual,
    DoubleStarEqual, VBarEqual, AmperEqual, CircumflexEqual, LeftShiftEqual, RightShiftEqual,
};

struct Token {
    TokKind kind = TokKind::End;
    Kw kw = Kw::NotKw;      // for Name tokens that are keywords
    Op op = Op::None;       // for Op tokens
    int level = 0;          // bracket depth after this token (CPython's tok->level)
    size_t begin = 0, end = 0;  // byte offsets into the lexer's source
    int line = 0, col = 0, endLine = 0, endCol = 0; // 1-based lines, 0-based byte columns
};

// Turns raw file bytes into what the lexer reads: strips a UTF-8 BOM, checks the bytes are valid
// UTF-8 (CPython's "Non-UTF-8 code ..." SyntaxError otherwise) and turns CRLF / CR into LF.
std::string prepareSource(const std::string& raw, const std::string& filename);

// Splits prepared source into lines without their '\n'.
std::vector<std::string> splitLines(const std::string& src);

// Unicode classes used for identifiers (XID_Start / XID_Continue, from Unicode 14 as in Python
// 3.11) and for choosing between CPython's "invalid character" messages.
bool isXidStart(uint32_t cp);
bool isXidContinue(uint32_t cp);
bool isPrintableCodePoint(uint32_t cp);

class Lexer {
public:
    // A whole file. `src` must come from prepareSource and outlive the lexer.
    Lexer(const std::string& src, std::string filename);
    // A replacement field of an f-string: bytes [begin, end) of `src`, which start at `line` and
    // whose line starts at byte `lineStart`. Lexed as if wrapped in parentheses (CPython wraps
    // the expression the same way), so newlines inside are ignored and no INDENT is made.
    Lexer(const std::string& src, std::string filename, size_t begin, size_t end, int line,
          size_t lineStart);

    // The next token. Throws SyntaxError; after an error every later call throws it again.
    Token next();

    std::string_view text(const Token& t) const { return std::string_view(src_).substr(t.begin, t.end - t.begin); }
    const std::string& source() const { return src_; }
    const std::string& filename() const { return filename_; }
    bool failed() const { return failed_; }

    // Set when the last error was "'(' was never closed" at end of input, with the line of the
    // innermost open bracket: the parser reports that error only in some situations (see parser).
    bool unclosedAtEof() const { return unclosedAtEof_; }
    int unclosedLine() const { return unclosedLine_; }

    // Whether the last error is one CPython's tokenizer only signals with a status code (bad
    // dedent, TabError, stray character after '\\'): it does not replace a parser error found
    // earlier in the file.
    bool lastErrorQuiet() const { return quietError_; }

private:
    [[noreturn]] void fail(const std::string& msg, int line, int col, const char* kind = "SyntaxError",
                           bool quiet = false);
    struct Bracket { char ch; int line, col; };

    Token make(TokKind k, size_t b, int line, int col);
    bool atLineStartIndent(Token& out);   // handles indentation at the start of a logical line
    void lexName(Token& t);
    void lexNumber();
    void lexString(Token& t, size_t begin); // `begin`: start of the prefix, pos_ at the quote
    bool lexOperator(Token& t);
    void checkIdentifier(size_t b, size_t e);
    void verifyEndOfNumber(const char* kind);
    void decimalTail();
    int colOf(size_t pos) const { return static_cast<int>(pos - lineStart_); }
    void newline(size_t posOfNewlineChar) { line_++; lineStart_ = posOfNewlineChar + 1; }
    int peekc(size_t k = 0) const { return pos_ + k < end_ ? static_cast<unsigned char>(src_[pos_ + k]) : -1; }

    const std::string& src_;
    std::string filename_;
    size_t pos_ = 0, end_ = 0;
    size_t lineStart_ = 0;
    int line_ = 1;
    bool fstringExpr_ = false;

    bool atLineStart_ = true;
    bool lineHasTokens_ = false;       // a NEWLINE is owed at end of input
    int pendingDedents_ = 0;
    std::vector<int> indents_{0};      // columns with tabs to multiples of 8
    std::vector<int> altIndents_{0};   // columns with tabs counted as 1 (for TabError)
    std::vector<Bracket> brackets_;

    bool failed_ = false;
    bool quietError_ = false;
    SyntaxError error_;
    bool unclosedAtEof_ = false;
    int unclosedLine_ = 0;
};

const char* opText(Op op);

} // namespace fl::script
