// Benchmark (not a test): how long capture takes to trace a compiled function of N tensor ops, for
// N = 1k, 2k, 4k and 20k (or the sizes given). Each size runs in a fresh interpreter; the time is
// the compile id's "trace" phase (the interpreter running the function with every op recorded,
// guards collected, the graph finished and named), as `fuselab profile` reports it.
//   bench_trace [--shape loop|lines] [--backend reference|fuselab] [--repeat R] [N ...]
// --shape loop: `for i in range(N): x = x + 1` inside the function (the trace unrolls it);
// lines: a generated straight-line function of N statements cycling through add, mul, sub, relu.
// --backend fuselab also lowers, fuses and compiles the graph (reference, the default, replays it
// op by op) and prints those phases; --repeat runs each size R times and prints the median.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "core/capture/capture.h"
#include "core/runtime/runtime.h"
#include "core/script/interp.h"

using namespace fl;

static std::string scriptFor(int n, const std::string& shape) {
    std::string s = "import torch\n\n@torch.compile\ndef f(x):\n";
    if (shape == "loop") {
        s += "    for i in range(" + std::to_string(n) + "):\n        x = x + 1\n";
    } else {
        static const char* lines[] = {"    x = x + 1\n", "    x = x * 0.5\n", "    x = x - 2\n", "    x = torch.relu(x)\n"};
        for (int i = 0; i < n; ++i) s += lines[i % 4];
    }
    s += "    return x\n\nprint(f(torch.zeros(4)).sum().item())\n";
    return s;
}

struct Result {
    double traceMs = 0, backendMs = 0, wallMs = 0;
    std::vector<std::pair<std::string, double>> phases; // the backend's, in order
    int ops = 0, graphs = 0, kernels = 0;
    bool ok = false;
};

static Result runOnce(int n, const std::string& shape, bool fuselab) {
    Result r;
    script::RunOptions opts;
    opts.out = [](const std::string&) {};
    script::Interp in(opts);
    capture::Session& session = capture::install(in, fuselab ? runtime::fuselabBackend() : nullptr);
    const auto t0 = std::chrono::steady_clock::now();
    try {
        in.runMain(script::parseModule(scriptFor(n, shape), "<bench_trace>"));
    } catch (script::PyException& e) {
        std::cerr << in.formatException(e);
        return r;
    }
    r.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (const events::Event& ev : session.events.snapshot()) {
        if (ev.category != events::Category::Phase) continue;
        double ms = double(ev.dur) * 1e-6;
        if (ev.name == "trace") r.traceMs += ms;
        else if (ev.name != "guard build" && ev.name != "first run") {
            r.backendMs += ms;
            r.phases.emplace_back(ev.name, ms);
        }
    }
    for (const capture::CFrame* fr : session.framesInOrder())
        for (const auto& e : fr->entries) {
            r.ops += e->graph.ops;
            if (e->compiled) r.kernels += int(e->compiled->kernelCount());
        }
    r.graphs = session.graphCount();
    r.ok = true;
    return r;
}

int main(int argc, char** argv) {
    std::string shape = "loop", backend = "reference";
    int repeat = 1;
    std::vector<int> sizes;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--shape" && i + 1 < argc) shape = argv[++i];
        else if (a == "--backend" && i + 1 < argc) backend = argv[++i];
        else if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
        else if (std::atoi(a.c_str()) > 0) sizes.push_back(std::atoi(a.c_str()));
        else {
            std::cerr << "usage: bench_trace [--shape loop|lines] [--backend reference|fuselab] [--repeat R] [N ...]\n";
            return 2;
        }
    }
    if (shape != "loop" && shape != "lines") { std::cerr << "bench_trace: --shape is loop or lines\n"; return 2; }
    if (backend != "reference" && backend != "fuselab") { std::cerr << "bench_trace: --backend is reference or fuselab\n"; return 2; }
    if (sizes.empty()) sizes = {1000, 2000, 4000, 20000};
    std::printf("trace time of a compiled function of N ops (--shape %s, --backend %s, median of %d), %u hardware threads\n",
                shape.c_str(), backend.c_str(), repeat, std::thread::hardware_concurrency());
    std::printf("%8s %8s %12s %12s %12s %12s\n", "N", "ops", "trace ms", "us per op", backend == "fuselab" ? "backend ms" : "", "run ms");
    for (int n : sizes) {
        std::vector<Result> runs;
        for (int k = 0; k < repeat; ++k) {
            Result r = runOnce(n, shape, backend == "fuselab");
            if (!r.ok) return 1;
            runs.push_back(r);
        }
        std::sort(runs.begin(), runs.end(), [](const Result& a, const Result& b) { return a.traceMs < b.traceMs; });
        const Result& m = runs[runs.size() / 2];
        std::printf("%8d %8d %12.1f %12.2f ", n, m.ops, m.traceMs, m.ops ? m.traceMs * 1e3 / m.ops : 0.0);
        if (backend == "fuselab") std::printf("%12.1f ", m.backendMs);
        else std::printf("%12s ", "");
        std::printf("%12.1f%s\n", m.wallMs, m.graphs == 1 ? "" : "  (not one graph)");
        if (backend == "fuselab") {
            std::printf("%8s %d kernels; backend phases:", "", m.kernels);
            for (auto& [name, ms] : m.phases) std::printf(" %s %.1f", name.c_str(), ms);
            std::printf("\n");
        }
    }
    return 0;
}
