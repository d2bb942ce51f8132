#include "app/cli.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "core/script/runner.h"
#include "profiler/phase_timer.h"

namespace fl::app {

std::string usage() {
    return "usage: fuselab [MODEL.py]                     open the explorer (headless: print the report)\n"
           "       fuselab run [--timeout S] MODEL.py     run a model script\n"
           "       fuselab explain|bench|profile|kernels  (not built yet: they arrive with the capture\n"
           "                                              and compiler layers)\n"
           "       fuselab --version\n";
}

bool isSubcommand(const std::string& w) {
    return w == "run" || w == "explain" || w == "bench" || w == "profile" || w == "kernels";
}

namespace {

int runCommand(const std::vector<std::string>& args) {
    script::RunConfig cfg;
    cfg.hardExitOnStuckTimeout = true;
    std::string path;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--timeout") {
            if (i + 1 >= args.size()) { std::cerr << "fuselab run: --timeout needs a number of seconds\n"; return 2; }
            char* end = nullptr;
            cfg.timeoutSeconds = std::strtod(args[++i].c_str(), &end);
            if (!end || *end || cfg.timeoutSeconds <= 0) { std::cerr << "fuselab run: --timeout needs a positive number of seconds\n"; return 2; }
        } else if (a.rfind("--timeout=", 0) == 0) {
            cfg.timeoutSeconds = std::atof(a.c_str() + 10);
        } else if (a == "-h" || a == "--help") {
            std::cout << usage();
            return 0;
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            std::cerr << "fuselab run: unknown option " << a << "\n" << usage();
            return 2;
        } else if (path.empty()) {
            path = a;
        } else {
            std::cerr << "fuselab run: one model script at a time\n";
            return 2;
        }
    }
    if (path.empty()) { std::cerr << "fuselab run: no model script given\n" << usage(); return 2; }
    cfg.path = path;
    cfg.out = [](const std::string& s) { std::cout << s; };
    cfg.err = [](const std::string& s) { std::cout.flush(); std::cerr << s; };
    script::RunResult r = script::runScript(cfg);
    std::cout.flush();
    return r.exitCode;
}

} // namespace

int runCli(const std::vector<std::string>& args) {
    if (args.empty()) { std::cerr << usage(); return 2; }
    const std::string& cmd = args[0];
    if (cmd == "run") return runCommand(args);
    if (isSubcommand(cmd)) {
        std::cerr << "fuselab " << cmd << ": not built yet. Today `fuselab run` executes scripts eagerly; "
                  << cmd << " arrives with the capture and compiler layers.\n";
        return 2;
    }
    std::cerr << "fuselab: unknown command '" << cmd << "'\n" << usage();
    return 2;
}

int runHeadlessReport(const std::string& path) {
    profiler::PhaseTimer timer;
    script::RunConfig cfg;
    cfg.path = path;
    cfg.hardExitOnStuckTimeout = true;
    std::cout << "== fuselab: " << path << " ==\n-- script output --\n";
    cfg.out = [](const std::string& s) { std::cout << s; };
    cfg.err = [](const std::string& s) { std::cout.flush(); std::cerr << s; };
    timer.begin("run");
    script::RunResult r = script::runScript(cfg);
    timer.end();
    std::cout << "-- report --\n";
    std::cout << "status: " << (r.exitCode == 0 ? "ok" : "failed (exit " + std::to_string(r.exitCode) + ")") << "\n";
    std::cout << "time: " << timer.summary() << " (eager on LibTorch; torch.compile targets run eagerly until the capture layer lands)\n";
    std::cout.flush();
    return r.exitCode;
}

} // namespace fl::app
