#include "app/cli.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "core/capture/capture.h"
#include "core/inspect/bench.h"
#include "core/inspect/report.h"
#include "core/script/api_names.h"
#include "core/script/interp.h"
#include "core/run/runner.h"
#include "profiler/phase_timer.h"
#include "profiler/profile.h"

namespace fl::app {

std::string usage() {
    return "usage: fuselab [MODEL.py]                        open the explorer (headless: print the report)\n"
           "       fuselab run [--timeout S] [--no-compile] MODEL.py [-- ARGS...]\n"
           "                                                 run a model script (--no-compile: torch.compile runs eagerly;\n"
           "                                                 --timeout S or --timeout=S: stop after S seconds, 0 < S <= 604800;\n"
           "                                                 ARGS after -- are the script's sys.argv[1:])\n"
           "       fuselab explain [--json] [--timeout S] MODEL.py [-- ARGS...]\n"
           "                                                 graphs, graph breaks, recompiles and guards of each compiled function\n"
           "       fuselab kernels [--decisions] [--plan] [--ir] [--asm] [--threads N] MODEL.py\n"
           "                                                 the kernels generated for each compiled graph\n"
           "       fuselab bench [--json] [--threads N] MODEL.py\n"
           "                                                 replay each compiled call: first call, compile phases, cached vs eager\n"
           "       fuselab profile [--threads N] [--json] [--budget S] MODEL.py -o TRACE.json\n"
           "                                                 where compile time goes and what cached calls cost; writes a Perfetto trace\n"
           "       fuselab api --coverage [--missing] [--json]\n"
           "                                                 which of torch 1.13's public names Fuselab provides, per namespace\n"
           "       fuselab --screenshot OUT.png [--pane NAME | --raise NAME,...] [--select LINE]\n"
           "               [--fusion-filter rejected|involving] [--graph captured|training|backward|joint]\n"
           "               [--partition-step N] [--while-compiling] [MODEL.py]\n"
           "                                                 run the script and save the window (or one pane) as a PNG;\n"
           "                                                 panes: source, graph, fusion, kernels, guards, timing, output, problems,\n"
           "                                                 partition; --select picks a script line's nodes first, as a click on\n"
           "                                                 it does; --graph draws one of a training entry's graphs (backward: with\n"
           "                                                 a saved value's details); --partition-step\n"
           "                                                 goes to that decision of the training partition;\n"
           "                                                 --while-compiling takes it while the first graph's\n"
           "                                                 kernels compile (held there until it is saved)\n"
           "       fuselab --version\n"
           "Logs: FUSELAB_LOGS (or TORCH_LOGS)=graph_breaks,recompiles,recompiles_verbose,guards,graph_code\n";
}

bool isSubcommand(const std::string& w) {
    return w == "run" || w == "explain" || w == "bench" || w == "profile" || w == "kernels" || w == "api";
}

namespace {

// --timeout's limit: a week (no model script needs longer; far larger values, 1e300 or inf,
// once overflowed the deadline and fired at once).
constexpr double kMaxTimeoutSeconds = 7 * 24 * 3600;

// Parses --timeout's value; prints a usage error and returns false when it cannot be honoured.
bool parseTimeout(const std::string& cmd, const std::string& text, double& out) {
    char* end = nullptr;
    errno = 0;
    double v = text.empty() || std::isspace(static_cast<unsigned char>(text[0])) ? 0 : std::strtod(text.c_str(), &end);
    bool number = end && end != text.c_str() && *end == 0 && errno == 0 && std::isfinite(v);
    if (!number || v <= 0 || v > kMaxTimeoutSeconds) {
        std::cerr << "fuselab " << cmd << ": --timeout needs a number of seconds greater than 0 and at most " << kMaxTimeoutSeconds
                  << " (7 days), got '" << text << "'\n";
        return false;
    }
    out = v;
    return true;
}

struct CommonArgs {
    run::RunConfig cfg;
    std::string path;
    bool json = false;
    int threads = 0;
    inspect::KernelsOptions kernels;
};

// Parses the options shared by run and explain; returns -1 to go on, else an exit code.
int parseArgs(const std::string& cmd, const std::vector<std::string>& args, CommonArgs& out) {
    run::RunConfig& cfg = out.cfg;
    cfg.hardExitOnStuckTimeout = true;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--timeout" || a.rfind("--timeout=", 0) == 0) {
            if (a == "--timeout" && i + 1 >= args.size()) { std::cerr << "fuselab " << cmd << ": --timeout needs a number of seconds\n"; return 2; }
            if (!parseTimeout(cmd, a == "--timeout" ? args[++i] : a.substr(10), cfg.timeoutSeconds)) return 2;
        } else if (a == "--no-compile" && cmd == "run") {
            cfg.compile = false;
        } else if (a == "--json" && (cmd == "explain" || cmd == "bench")) {
            out.json = true;
        } else if (a == "--threads" && (cmd == "bench" || cmd == "kernels" || cmd == "run" || cmd == "profile")) {
            char* end = nullptr;
            long n = i + 1 < args.size() ? std::strtol(args[++i].c_str(), &end, 10) : 0;
            if (!end || *end || n < 1 || n > 1024) { std::cerr << "fuselab " << cmd << ": --threads needs a number of threads (1 to 1024)\n"; return 2; }
            out.threads = int(n);
        } else if (a == "--decisions" && cmd == "kernels") {
            out.kernels.decisions = true;
        } else if (a == "--plan" && cmd == "kernels") {
            out.kernels.plan = true;
        } else if (a == "--ir" && cmd == "kernels") {
            out.kernels.ir = true;
        } else if (a == "--asm" && cmd == "kernels") {
            out.kernels.assembly = true;
        } else if (a == "-h" || a == "--help") {
            std::cout << usage();
            return 0;
        } else if (a == "--") {
            // the rest is the script's: sys.argv[1:] (argparse in model code reads them)
            cfg.args.assign(args.begin() + long(i) + 1, args.end());
            break;
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            std::cerr << "fuselab " << cmd << ": unknown option " << a << "\n" << usage();
            return 2;
        } else if (out.path.empty()) {
            out.path = a;
        } else {
            std::cerr << "fuselab " << cmd << ": one model script at a time\n";
            return 2;
        }
    }
    if (out.path.empty()) { std::cerr << "fuselab " << cmd << ": no model script given\n" << usage(); return 2; }
    cfg.path = out.path;
    if (out.threads > 0) runtime::setThreads(out.threads);
    return -1;
}

int runCommand(const std::vector<std::string>& args) {
    CommonArgs ca;
    if (int rc = parseArgs("run", args, ca); rc >= 0) return rc;
    ca.cfg.out = [](const std::string& s) { std::cout << s; };
    ca.cfg.err = [](const std::string& s) { std::cout.flush(); std::cerr << s; };
    run::RunResult r = run::runScript(ca.cfg);
    std::cout.flush();
    return r.exitCode;
}

// Runs the script with its output captured, then prints what `report` makes of the finished run
// (fuselab explain, fuselab kernels).
int reportCommand(const std::string& cmd, const std::vector<std::string>& args,
                  const std::function<std::string(script::Interp&, const CommonArgs&, const std::string& output)>& report) {
    CommonArgs ca;
    if (int rc = parseArgs(cmd, args, ca); rc >= 0) return rc;
    std::string output, text;
    ca.cfg.out = [&output](const std::string& s) { output += s; };
    ca.cfg.err = [](const std::string& s) { std::cerr << s; };
    ca.cfg.afterRun = [&](script::Interp& in) { text = report(in, ca, output); };
    run::RunResult r = run::runScript(ca.cfg);
    if (r.status == run::RunStatus::SyntaxError || r.status == run::RunStatus::CannotRead) return r.exitCode;
    std::cout << text;
    std::cout.flush();
    return r.exitCode;
}

// fuselab explain: what capture did.
int explainCommand(const std::vector<std::string>& args) {
    return reportCommand("explain", args, [](script::Interp& in, const CommonArgs& ca, const std::string& output) {
        return ca.json ? capture::explainJson(capture::session(in), ca.path, output) : capture::explainText(capture::session(in), ca.path, output);
    });
}

// fuselab kernels: the kernels generated for each compiled graph.
int kernelsCommand(const std::vector<std::string>& args) {
    return reportCommand("kernels", args, [](script::Interp& in, const CommonArgs& ca, const std::string&) {
        return inspect::kernelsText(capture::session(in), ca.kernels);
    });
}

// fuselab bench: runs the script with its compiled calls recorded, then replays and times them.
int benchCommand(const std::vector<std::string>& args) {
    CommonArgs ca;
    if (int rc = parseArgs("bench", args, ca); rc >= 0) return rc;
    std::string output, report;
    bool json = ca.json;
    ca.cfg.out = [&output](const std::string& s) { output += s; };
    ca.cfg.err = [](const std::string& s) { std::cerr << s; };
    auto before = ca.cfg.beforeRun;
    ca.cfg.beforeRun = [before](script::Interp& in) {
        if (before) before(in);
        capture::session(in).recordCalls = true;
    };
    bool failed = false;
    ca.cfg.afterRun = [&](script::Interp& in) {
        try {
            if (!json) std::cerr << "fuselab bench: replaying " << capture::session(in).recorded.size() << " recorded calls...\n";
            inspect::BenchReport br = inspect::runBench(in, inspect::BenchOptions{});
            report = json ? inspect::benchJson(br) : inspect::benchText(br);
        } catch (script::PyException& e) {
            std::cerr << "fuselab bench: a replayed call raised " << in.formatException(e) << "\n";
            failed = true;
        }
    };
    run::RunResult r = run::runScript(ca.cfg);
    if (r.exitCode != 0) {
        std::cerr << "fuselab bench: the script failed (exit " << r.exitCode << "); nothing to benchmark\n";
        return r.exitCode;
    }
    if (failed) return 1;
    std::cout << report;
    std::cout.flush();
    return 0;
}

// fuselab profile: runs the script with the event log on, replays the recorded calls, prints the
// summary and writes the Trace Event JSON.
int profileCommand(const std::vector<std::string>& args) {
    std::vector<std::string> rest{args[0]};
    std::string out;
    bool json = false;
    profiler::CollectOptions co;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "-o" || a == "--output") {
            if (i + 1 >= args.size()) { std::cerr << "fuselab profile: " << a << " needs a file name\n"; return 2; }
            out = args[++i];
        } else if (a.rfind("--output=", 0) == 0) {
            out = a.substr(9);
        } else if (a == "--json") {
            json = true;
        } else if (a == "--budget") {
            char* end = nullptr;
            co.budgetSeconds = i + 1 < args.size() ? std::strtod(args[++i].c_str(), &end) : 0;
            if (!end || *end || co.budgetSeconds < 0) { std::cerr << "fuselab profile: --budget needs a number of seconds\n"; return 2; }
        } else {
            rest.push_back(a);
        }
    }
    CommonArgs ca;
    if (int rc = parseArgs("profile", rest, ca); rc >= 0) return rc;
    if (out.empty()) { std::cerr << "fuselab profile: no trace file given (-o trace.json)\n" << usage(); return 2; }
    // fail before running anything when the trace cannot be written
    const bool existed = std::ifstream(out).good();
    {
        std::ofstream probe(out, std::ios::app);
        if (!probe) { std::cerr << "fuselab profile: cannot write " << out << ": " << std::strerror(errno) << "\n"; return 1; }
    }
    struct Cleanup { // the probe's empty file goes when nothing is written
        const std::string& path;
        bool remove;
        ~Cleanup() { if (remove) std::remove(path.c_str()); }
    } cleanup{out, !existed};
    std::string output;
    ca.cfg.out = [&output](const std::string& s) { output += s; };
    ca.cfg.err = [](const std::string& s) { std::cerr << s; };
    ca.cfg.beforeRun = [](script::Interp& in) { profiler::prepare(in); };
    profiler::Profile prof;
    bool failed = false;
    ca.cfg.afterRun = [&](script::Interp& in) {
        try {
            prof = profiler::collect(in, co);
        } catch (script::PyException& e) {
            std::cerr << "fuselab profile: a replayed call raised " << in.formatException(e) << "\n";
            failed = true;
        }
    };
    run::RunResult r = run::runScript(ca.cfg);
    if (r.exitCode != 0) {
        std::cerr << "fuselab profile: the script failed (exit " << r.exitCode << "); nothing to profile\n";
        return r.exitCode;
    }
    if (failed) return 1;
    prof.file = ca.path;
    cleanup.remove = false;
    std::ofstream f(out, std::ios::binary | std::ios::trunc);
    f << profiler::traceJson(prof);
    f.close();
    if (!f) { std::cerr << "fuselab profile: cannot write " << out << ": " << std::strerror(errno) << "\n"; return 1; }
    std::cout << (json ? profiler::profileJson(prof) : profiler::profileText(prof));
    if (!json) std::cout << "\ntrace: " << out << " (open in https://ui.perfetto.dev or chrome://tracing)\n";
    std::cout.flush();
    return 0;
}

// fuselab api --coverage: for each namespace of torch 1.13, how many of its public names (its
// dir(), core/script/api_names.inc) a model script finds in Fuselab.
int apiCommand(const std::vector<std::string>& args) {
    bool coverage = false, missing = false, json = false;
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--coverage") coverage = true;
        else if (args[i] == "--missing") missing = true;
        else if (args[i] == "--json") json = true;
        else { std::cerr << "fuselab api: unknown option '" << args[i] << "'\n" << usage(); return 2; }
    }
    if (!coverage) { std::cerr << "fuselab api: say what to report (--coverage)\n" << usage(); return 2; }
    struct Row { std::string ns; size_t have = 0, total = 0; std::vector<std::string> absent; };
    std::vector<Row> rows;
    run::RunConfig cfg;
    cfg.path = "<api coverage>";
    cfg.haveSource = true;
    cfg.source = "import torch\nimport torch.nn\nimport torch.nn.functional\nimport torch.optim\n"
                 "try:\n    import torch.utils.data\nexcept ImportError:\n    pass\n";
    cfg.compile = false;
    cfg.importFromEnvironment = false;
    cfg.out = [](const std::string&) {};
    cfg.err = [](const std::string& s) { std::cerr << s; };
    cfg.afterRun = [&rows](script::Interp& in) {
        for (const script::ApiNamespace& ns : script::torchApiNames()) {
            Row row{ns.name};
            const bool tensor = ns.name == "torch.Tensor";
            script::Value obj = tensor ? script::Value(in.tensorCls) : in.findModule(ns.name);
            // Tensor's properties (shape, dtype, grad, ...) are found on a tensor, as scripts use
            // them; in torch they are descriptors of the class
            script::Value sample, zeros;
            if (tensor && in.tryGetAttr(in.findModule("torch"), "zeros", zeros)) sample = in.call(zeros, {script::Value::integer(1)});
            auto found = [&in](const script::Value& on, const std::string& name) {
                if (on.isNone()) return false;
                try {
                    script::Value out;
                    return in.tryGetAttr(on, name, out);
                } catch (...) {
                    return false;
                }
            };
            for (const std::string& n : ns.names) {
                const bool has = found(obj, n) || found(sample, n);
                ++row.total;
                if (has) ++row.have;
                else row.absent.push_back(n);
            }
            rows.push_back(std::move(row));
        }
    };
    run::RunResult r = run::runScript(cfg);
    if (r.exitCode != 0) { std::cerr << "fuselab api: the torch modules did not load (exit " << r.exitCode << ")\n"; return 1; }
    auto pct = [](const Row& x) { return x.total ? 100.0 * double(x.have) / double(x.total) : 100.0; };
    if (json) {
        std::cout << "{\"reference\": \"torch 1.13 dir()\", \"namespaces\": [";
        for (size_t i = 0; i < rows.size(); ++i) {
            const Row& x = rows[i];
            std::cout << (i ? ", " : "") << "{\"name\": \"" << x.ns << "\", \"have\": " << x.have << ", \"total\": " << x.total << ", \"missing\": [";
            for (size_t k = 0; k < x.absent.size(); ++k) std::cout << (k ? ", " : "") << "\"" << x.absent[k] << "\"";
            std::cout << "]}";
        }
        std::cout << "]}\n";
        return 0;
    }
    std::cout << "Public names of torch 1.13 (dir() of each namespace) that a model script finds in Fuselab:\n";
    for (const Row& x : rows) {
        char line[160];
        std::snprintf(line, sizeof line, "  %-22s %4zu of %4zu  %5.1f%%\n", x.ns.c_str(), x.have, x.total, pct(x));
        std::cout << line;
    }
    if (missing)
        for (const Row& x : rows) {
            if (x.absent.empty()) continue;
            std::cout << "\nmissing from " << x.ns << " (" << x.absent.size() << "):\n ";
            size_t col = 1;
            for (const std::string& n : x.absent) {
                if (col + n.size() + 1 > 100) { std::cout << "\n "; col = 1; }
                std::cout << " " << n;
                col += n.size() + 1;
            }
            std::cout << "\n";
        }
    else std::cout << "(--missing lists the names that are not there)\n";
    return 0;
}

} // namespace

int runCli(const std::vector<std::string>& args) {
    if (args.empty()) { std::cerr << usage(); return 2; }
    const std::string& cmd = args[0];
    if (cmd == "run") return runCommand(args);
    if (cmd == "explain") return explainCommand(args);
    if (cmd == "kernels") return kernelsCommand(args);
    if (cmd == "bench") return benchCommand(args);
    if (cmd == "profile") return profileCommand(args);
    if (cmd == "api") return apiCommand(args);
    if (isSubcommand(cmd)) {
        std::cerr << "fuselab " << cmd << ": not built yet; it arrives with the profiler.\n";
        return 2;
    }
    std::cerr << "fuselab: unknown command '" << cmd << "'\n" << usage();
    return 2;
}

int runHeadlessReport(const std::string& path) {
    profiler::PhaseTimer timer;
    run::RunConfig cfg;
    cfg.path = path;
    cfg.hardExitOnStuckTimeout = true;
    std::cout << "== fuselab: " << path << " ==\n-- script output --\n";
    cfg.out = [](const std::string& s) { std::cout << s; };
    cfg.err = [](const std::string& s) { std::cout.flush(); std::cerr << s; };
    std::string capture;
    cfg.afterRun = [&capture](script::Interp& in) {
        const capture::Session& s = capture::session(in);
        capture = "graphs: " + std::to_string(s.graphCount()) + ", graph breaks: " + std::to_string(s.report().breaks.size()) +
                  ", recompiles: " + std::to_string(s.report().recompiles.size()) + " (details: fuselab explain)";
    };
    timer.begin("run");
    run::RunResult r = run::runScript(cfg);
    timer.end();
    std::cout << "-- report --\n";
    std::cout << "status: " << (r.exitCode == 0 ? "ok" : "failed (exit " + std::to_string(r.exitCode) + ")") << "\n";
    std::cout << "capture: " << capture << "\n";
    std::cout << "time: " << timer.summary() << "\n";
    std::cout.flush();
    return r.exitCode;
}

} // namespace fl::app
