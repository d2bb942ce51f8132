// Syntax colouring for what the Kernels pane shows: generated C++, LLVM IR and assembly.
// Regular expressions per language, and line comments scanned last (C++ also /* */ blocks).
#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <vector>

namespace fl::viz {

class CodeHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    enum class Language { Cpp, LlvmIr, Assembly };
    CodeHighlighter(QTextDocument* doc, Language language);
    Language language() const { return language_; }

protected:
    void highlightBlock(const QString& text) override;

private:
    struct Rule { QRegularExpression re; QTextCharFormat fmt; };
    Language language_;
    std::vector<Rule> rules_;
    QTextCharFormat commentFmt_, stringFmt_;
};

} // namespace fl::viz
