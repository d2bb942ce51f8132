// Benchmark (not a test): how long the guard check of a cached call takes. Runs a model script
// (default: a compiled function of 4 tensor inputs called a few times), then times the check of
// each compiled frame's newest entry against the inputs of its last call.
//   bench_guards [MODEL.py] [--iterations N]
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

#include "core/capture/capture.h"
#include "core/runtime/runtime.h"
#include "core/script/interp.h"

using namespace fl;

static const char* kDefault = R"PY(import torch

@torch.compile
def f(a, b, c, d):
    return a * b + c * d

xs = [torch.randn(64, 64) for _ in range(4)]
for _ in range(3):
    f(*xs)
)PY";

int main(int argc, char** argv) {
    std::string path = "<four_tensor_inputs>", source = kDefault;
    int iterations = 200000;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--iterations" && i + 1 < argc) iterations = std::atoi(argv[++i]);
        else {
            path = a;
            std::ifstream f(a);
            if (!f) { std::cerr << "bench_guards: cannot read " << a << "\n"; return 2; }
            std::stringstream ss;
            ss << f.rdbuf();
            source = ss.str();
        }
    }
    script::RunOptions opts;
    opts.out = [](const std::string&) {};
    script::Interp in(opts);
    capture::Session& session = capture::install(in, runtime::fuselabBackend());
    try {
        in.runMain(script::parseModule(source, path));
    } catch (script::PyException& e) {
        std::cerr << in.formatException(e);
        return 1;
    }
    std::printf("guard check per cached call (%s), median of 7 batches of %d, %u hardware threads\n", path.c_str(), iterations,
                std::thread::hardware_concurrency());
    for (auto& t : session.timeGuards(iterations, 7))
        std::printf("  [%s] %2d guards  %8.1f ns  %s\n", t.id.c_str(), t.guards, t.nanos, t.passed ? "pass" : "FAIL (inputs no longer match)");
    return 0;
}
