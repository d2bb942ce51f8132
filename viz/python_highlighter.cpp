#include "viz/python_highlighter.h"

#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

namespace fl::viz {

PythonHighlighter::PythonHighlighter(QTextDocument* doc) : QSyntaxHighlighter(doc) {
    // Colours chosen to read on both light and dark palettes.
    bool dark = QGuiApplication::palette().color(QPalette::Base).lightness() < 128;
    auto fmt = [](QColor c, bool bold = false) {
        QTextCharFormat f;
        f.setForeground(c);
        if (bold) f.setFontWeight(QFont::Bold);
        return f;
    };
    QTextCharFormat kw = fmt(dark ? QColor("#c792ea") : QColor("#7a1fa2"), true);
    QTextCharFormat builtin = fmt(dark ? QColor("#82aaff") : QColor("#1f4fa2"));
    QTextCharFormat number = fmt(dark ? QColor("#f78c6c") : QColor("#b35900"));
    QTextCharFormat deco = fmt(dark ? QColor("#ffcb6b") : QColor("#8a6d00"));
    stringFmt_ = fmt(dark ? QColor("#c3e88d") : QColor("#2e7d32"));
    commentFmt_ = fmt(dark ? QColor("#7f8c98") : QColor("#6a737d"));
    commentFmt_.setFontItalic(true);
    const char* keywords = "\\b(and|as|assert|break|class|continue|def|del|elif|else|except|finally|for|from|global|if|import|in|is|lambda|nonlocal|not|or|pass|raise|return|try|while|with|None|True|False)\\b";
    rules_.push_back({QRegularExpression(keywords), kw});
    rules_.push_back({QRegularExpression("\\b(print|len|range|zip|enumerate|min|max|sum|abs|round|int|float|bool|str|list|tuple|dict|set|sorted|reversed|any|all|map|isinstance|type|getattr|setattr|hasattr|super|self|torch|nn|F)\\b"), builtin});
    rules_.push_back({QRegularExpression("\\b[0-9][0-9_]*(\\.[0-9_]*)?([eE][+-]?[0-9]+)?\\b"), number});
    rules_.push_back({QRegularExpression("^\\s*@[A-Za-z_][A-Za-z0-9_.]*"), deco});
}

void PythonHighlighter::highlightBlock(const QString& text) {
    for (const Rule& r : rules_) {
        auto it = r.re.globalMatch(text);
        while (it.hasNext()) {
            auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), r.fmt);
        }
    }
    // Strings and comments, scanned left to right so '#' inside a string is not a comment.
    int i = 0;
    const int n = int(text.size());
    while (i < n) {
        QChar c = text[i];
        if (c == '#') { setFormat(i, n - i, commentFmt_); break; }
        if (c == '"' || c == '\'') {
            int j = i + 1;
            while (j < n && text[j] != c) j += (text[j] == '\\') ? 2 : 1;
            setFormat(i, std::min(j + 1, n) - i, stringFmt_);
            i = j + 1;
            continue;
        }
        ++i;
    }
}

} // namespace fl::viz
