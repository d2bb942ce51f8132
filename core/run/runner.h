// Runs a model script from start to end: parse, interpret (with torch.compile's capture layer and
// Fuselab's backend wired in), report errors the way Python does. Used by the command line and the
// window alike. Safe against hostile input: errors become messages and exit codes, a timeout or
// Cancel stops the run, nothing escapes as a crash. This folder sits above script, capture and
// runtime: it is the only place that knows all three.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/support/cancel.h"

namespace fl::script {
class Interp;
}

namespace fl::run {

using script::Interp;

struct RunConfig {
    std::string path;              // shown in messages; read from disk unless `source` is set
    std::string source;            // optional: run this text instead of reading `path`
    bool haveSource = false;
    double timeoutSeconds = 0;     // 0: no limit
    const CancelToken* cancel = nullptr;
    std::function<void(const std::string&)> out; // script stdout (default: std::cout)
    std::function<void(const std::string&)> err; // tracebacks, warnings (default: std::cerr)
    std::function<void()> flush;                 // print(..., flush=True) (default: std::cout.flush())
    int64_t maxAllocBytes = 0;     // 0: half of physical memory
    bool hardExitOnStuckTimeout = false; // CLI: if a single op outlives the timeout by 5 s, _exit(124)
    bool compile = true;           // false: torch.compile runs eagerly (fuselab run --no-compile)
    bool importFromEnvironment = true; // false: imports see only the script's folder (fuzzing)
    std::vector<std::string> args;     // the script's arguments (sys.argv[1:]): `fuselab run m.py -- ARGS`
    std::function<void(Interp&)> beforeRun; // on the run thread, before the script starts
    std::function<void(Interp&)> afterRun; // on the run thread, before the interpreter ends
};

enum class RunStatus { Ok, SyntaxError, ScriptError, Timeout, Cancelled, CannotRead, InternalError };

struct RunResult {
    RunStatus status = RunStatus::Ok;
    int exitCode = 0;       // what `fuselab run` exits with: 0, 1 (script error), 2, 124 (timeout), 130
    std::string message;    // the error text that was written to err (traceback, SyntaxError block)
    int errorLine = 0;      // line of the error in the user's file, where known
    double seconds = 0;
};

RunResult runScript(const RunConfig& cfg);

} // namespace fl::run
