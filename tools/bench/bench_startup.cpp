// Benchmark (not a test): what one run of a tiny model script costs in-process, as the fuzz targets
// and fork-server children pay it: a fresh interpreter (builtins, the torch module, the nn/optim
// prelude), parse, run, teardown. Prints the median and the fastest of R runs.
//   bench_startup [--compile] [--repeat R] [SCRIPT_TEXT]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/run/runner.h"

using namespace fl;

int main(int argc, char** argv) {
    int repeat = 200;
    bool compile = false;
    std::string source = "x = 1\n";
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--compile")) compile = true;
        else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        else source = argv[i];
    }
    std::vector<double> ms;
    for (int r = 0; r < repeat; ++r) {
        run::RunConfig cfg;
        cfg.path = "bench.py";
        cfg.source = source;
        cfg.haveSource = true;
        cfg.compile = compile;
        cfg.importFromEnvironment = false;
        cfg.out = [](const std::string&) {};
        cfg.err = [](const std::string& s) { std::fputs(s.c_str(), stderr); };
        auto t0 = std::chrono::steady_clock::now();
        run::RunResult res = run::runScript(cfg);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        if (res.status != run::RunStatus::Ok) { std::fprintf(stderr, "bench_startup: the script failed\n"); return 1; }
    }
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    std::printf("bench_startup: %d runs, median %.2f ms, fastest %.2f ms, first %.2f ms\n", repeat,
                sorted[sorted.size() / 2], sorted.front(), ms.front());
    return 0;
}
