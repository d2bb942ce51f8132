// libFuzzer target: bytes -> run with torch.compile capture, then `fuselab explain`'s text and
// JSON reports (what app/cli.cpp's explainCommand prints), from the finished interpreter.
#include <cstdio>
#include <cstdlib>

#include "core/capture/capture.h"
#include "core/script/interp.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

// The JSON must at least balance its brackets outside strings (a cheap check that it parses).
bool balancedJson(const std::string& j) {
    int depth = 0;
    bool inString = false;
    for (size_t i = 0; i < j.size(); ++i) {
        char c = j[i];
        if (inString) {
            if (c == '\\') ++i;
            else if (c == '"') inString = false;
            else if (static_cast<unsigned char>(c) < 0x20) return false;
            continue;
        }
        if (c == '"') inString = true;
        else if (c == '{' || c == '[') ++depth;
        else if (c == '}' || c == ']') { if (--depth < 0) return false; }
    }
    return depth == 0 && !inString;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text, json;
    fl::fuzz::runInput(data, size, /*compile=*/true, [&](fl::script::Interp& in) {
        const std::string output = "";
        text = fl::capture::explainText(fl::capture::session(in), "fuzz.py", output);
        json = fl::capture::explainJson(fl::capture::session(in), "fuzz.py", output);
    });
    if (!json.empty() && !balancedJson(json)) {
        std::fprintf(stderr, "fuzz_explain: unbalanced JSON:\n%s\n", json.c_str());
        std::abort();
    }
    return 0;
}
