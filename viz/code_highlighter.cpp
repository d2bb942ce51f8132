#include "viz/code_highlighter.h"

#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

namespace fl::viz {

CodeHighlighter::CodeHighlighter(QTextDocument* doc, Language language) : QSyntaxHighlighter(doc), language_(language) {
    // the Python highlighter's colours: one look for the script and its kernels
    const bool dark = QGuiApplication::palette().color(QPalette::Base).lightness() < 128;
    auto fmt = [](QColor c, bool bold = false) {
        QTextCharFormat f;
        f.setForeground(c);
        if (bold) f.setFontWeight(QFont::Bold);
        return f;
    };
    const QTextCharFormat kw = fmt(dark ? QColor("#c792ea") : QColor("#7a1fa2"), true);
    const QTextCharFormat type = fmt(dark ? QColor("#82aaff") : QColor("#1f4fa2"));
    const QTextCharFormat number = fmt(dark ? QColor("#f78c6c") : QColor("#b35900"));
    const QTextCharFormat name = fmt(dark ? QColor("#ffcb6b") : QColor("#8a6d00"));
    stringFmt_ = fmt(dark ? QColor("#c3e88d") : QColor("#2e7d32"));
    commentFmt_ = fmt(dark ? QColor("#7f8c98") : QColor("#6a737d"));
    commentFmt_.setFontItalic(true);
    auto rule = [&](const char* re, const QTextCharFormat& f) { rules_.push_back({QRegularExpression(re), f}); };
    switch (language) {
    case Language::Cpp:
        rule("\\b(if|else|for|while|do|return|break|continue|static|inline|const|constexpr|extern|struct|using|namespace|auto|"
             "sizeof|alignas|restrict|__restrict__|template|typename|void)\\b", kw);
        rule("\\b(float|double|int|unsigned|long|short|char|bool|int64_t|int32_t|uint64_t|uint32_t|int8_t|uint8_t|size_t)\\b", type);
        rule("\\b(?:0x[0-9a-fA-F.]+(?:p[+-]?[0-9]+)?f?|[0-9]+(?:\\.[0-9]*)?(?:[eE][+-]?[0-9]+)?[fuUlL]*)\\b", number);
        rule("\\b(?:fl|cpp|__builtin)_[A-Za-z0-9_]*\\b", name);
        break;
    case Language::LlvmIr:
        rule("\\b(define|declare|ret|br|switch|call|tail|load|store|alloca|getelementptr|inbounds|phi|select|icmp|fcmp|add|sub|mul|"
             "fadd|fsub|fmul|fdiv|fneg|shl|lshr|ashr|and|or|xor|sext|zext|trunc|fpext|fptrunc|sitofp|fptosi|bitcast|extractelement|"
             "insertelement|shufflevector|label|nsw|nuw|fast|contract|align|private|internal|dso_local|noundef)\\b", kw);
        rule("\\b(i1|i8|i16|i32|i64|float|double|void|ptr|<\\d+ x [a-z0-9]+>)\\b", type);
        rule("[%@][-A-Za-z0-9_.$]+", name);
        rule("\\b-?[0-9]+(?:\\.[0-9]+)?(?:e[+-]?[0-9]+)?\\b", number);
        break;
    case Language::Assembly:
        rule("^\\s*[A-Za-z_.$][A-Za-z0-9_.$]*:", name);                    // labels
        rule("^\\s+[a-z][a-z0-9]*\\b", kw);                                 // mnemonics
        rule("%?\\b(?:[re]?[abcd]x|[re]?[sd]il?|[re]?[sb]p|r[0-9]+[dwb]?|[xyz]mm[0-9]+|k[0-7])\\b", type); // registers
        rule("\\$?-?\\b(?:0x[0-9a-fA-F]+|[0-9]+)\\b", number);
        rule("^\\s*\\.[a-z_]+", fmt(dark ? QColor("#7f8c98") : QColor("#6a737d"))); // directives
        break;
    }
}

void CodeHighlighter::highlightBlock(const QString& text) {
    for (const Rule& r : rules_)
        for (auto it = r.re.globalMatch(text); it.hasNext();) {
            auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), r.fmt);
        }
    // Strings and comments, left to right: a comment marker inside a string is not a comment.
    const QString marker = language_ == Language::Cpp ? "//" : language_ == Language::LlvmIr ? ";" : "#";
    const int n = int(text.size());
    int i = 0;
    if (language_ == Language::Cpp && previousBlockState() == 1) { // inside /* */
        int end = int(text.indexOf("*/"));
        setFormat(0, end < 0 ? n : end + 2, commentFmt_);
        setCurrentBlockState(end < 0 ? 1 : 0);
        if (end < 0) return;
        i = end + 2;
    } else {
        setCurrentBlockState(0);
    }
    while (i < n) {
        if (text.mid(i, marker.size()) == marker) { setFormat(i, n - i, commentFmt_); return; }
        if (language_ == Language::Cpp && text.mid(i, 2) == "/*") {
            int end = int(text.indexOf("*/", i + 2));
            setFormat(i, (end < 0 ? n : end + 2) - i, commentFmt_);
            if (end < 0) { setCurrentBlockState(1); return; }
            i = end + 2;
            continue;
        }
        if (text[i] == '"') {
            int j = i + 1;
            while (j < n && text[j] != '"') j += text[j] == '\\' ? 2 : 1;
            setFormat(i, std::min(j + 1, n) - i, stringFmt_);
            i = j + 1;
            continue;
        }
        ++i;
    }
}

} // namespace fl::viz
