// libFuzzer target: bytes -> lexer + parser (core/script). A parse must give a module whose dump
// works, or a SyntaxError with a position and a message that formats as Python prints it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/script/ast.h"
#include "core/script/ast_dump.h"
#include "core/run/runner.h"

using namespace fl::script;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string src(reinterpret_cast<const char*>(data), size);
    try {
        auto module = parseModule(src, "fuzz.py");
        (void)dumpAst(*module, true);
    } catch (const SyntaxError& e) {
        if (e.line < 1 || e.col < 0 || e.message.empty()) {
            std::fprintf(stderr, "fuzz_parse: SyntaxError without a position: %d:%d '%s'\n", e.line, e.col, e.message.c_str());
            std::abort();
        }
        (void)formatSyntaxError(e, src);
    }
    return 0;
}
