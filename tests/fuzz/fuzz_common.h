// Shared by the fuzz targets: running one input as a model script under a small budget.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/run/runner.h"

namespace fl::fuzz {

// Per-input budget. libFuzzer's own -timeout must be well above kScriptSeconds: the run is
// cancelled at kScriptSeconds, and only a run that ignores its cancellation counts as a hang.
constexpr double kScriptSeconds = 1.0;
constexpr int64_t kMaxObjectBytes = int64_t(32) << 20; // one tensor / list / string

// Runs `source` as a model script; `afterRun` sees the finished interpreter (explain).
// An internal error (exit 70: an exception of ours escaped the interpreter) is a finding:
// hostile input must get a Python error and a clean exit, never our internals.
inline run::RunResult runInput(const uint8_t* data, size_t size, bool compile,
                                  std::function<void(script::Interp&)> afterRun = {}) {
    run::RunConfig cfg;
    cfg.path = "fuzz.py";
    cfg.source.assign(reinterpret_cast<const char*>(data), size);
    cfg.haveSource = true;
    cfg.timeoutSeconds = kScriptSeconds;
    cfg.maxAllocBytes = kMaxObjectBytes;
    cfg.compile = compile;
    cfg.importFromEnvironment = false; // the same inputs import the same on every machine
    cfg.out = [](const std::string&) {};
    cfg.err = [](const std::string&) {};
    cfg.afterRun = std::move(afterRun);
    run::RunResult r = run::runScript(cfg);
    if (r.status == run::RunStatus::InternalError && !std::getenv("FUSELAB_FUZZ_ALLOW_INTERNAL")) {
        std::fprintf(stderr, "fuzz: internal error (exit %d): %s", r.exitCode, r.message.c_str());
        std::abort();
    }
    return r;
}

} // namespace fl::fuzz
