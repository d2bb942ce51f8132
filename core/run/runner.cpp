#include "core/run/runner.h"

#include "core/capture/capture.h"
#include "core/runtime/runtime.h"

#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <condition_variable>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/script/ast.h"
#include "core/script/interp.h"

namespace fl::run {

using namespace script;

namespace {

int64_t physicalMemory() {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? int64_t(pages) * size : int64_t(8) << 30;
}

struct Shared {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
};

struct Job {
    const RunConfig* cfg;
    CancelToken* stop;
    RunResult* result;
    std::shared_ptr<Module> mod;
    Shared* shared;
    int64_t parseBegin = 0, parseDur = 0; // events::now() clock
};

void* runJob(void* p) {
    auto* job = static_cast<Job*>(p);
    const RunConfig& cfg = *job->cfg;
    RunResult& r = *job->result;
    auto emitErr = [&](const std::string& s) {
        r.message = s;
        if (cfg.err) cfg.err(s);
        else std::cerr << s;
    };
    auto fail = [&](RunStatus status, int exitCode, const std::string& message) {
        r.status = status;
        r.exitCode = exitCode;
        emitErr(message);
    };
    try {
        RunOptions opts;
        opts.out = cfg.out;
        opts.flush = cfg.flush;
        opts.err = cfg.err;
        opts.cancel = job->stop;
        opts.maxAllocBytes = cfg.maxAllocBytes > 0 ? cfg.maxAllocBytes : physicalMemory() / 2;
        opts.importPaths = importPathsFor(cfg.path, cfg.importFromEnvironment);
        opts.argv.push_back(cfg.path);
        opts.argv.insert(opts.argv.end(), cfg.args.begin(), cfg.args.end());
        const int64_t startBegin = events::now();
        Interp in(opts);
        // FUSELAB_BACKEND=reference: graphs are replayed op by op (read per run: a child of
        // `fuselab --serve` sets its environment after the server loaded)
        const char* be = std::getenv("FUSELAB_BACKEND");
        const bool reference = be && std::string(be) == "reference";
        capture::Session& session = capture::install(in, reference ? nullptr : runtime::fuselabBackend());
        session.enabled = cfg.compile;
        {
            events::Log& log = session.events;
            const std::string file = cfg.path;
            log.span("script", "parse", events::Category::Phase, job->parseBegin, job->parseDur, events::PhaseFacts{"", file, events::ScriptStep::Parse});
            log.span("script", "interpreter start-up", events::Category::Phase, startBegin, events::now() - startBegin,
                     events::PhaseFacts{"", file, events::ScriptStep::StartUp});
        }
        if (cfg.beforeRun) cfg.beforeRun(in);
        struct After {
            const RunConfig& cfg;
            Interp& in;
            ~After() {
                if (cfg.afterRun) cfg.afterRun(in);
            }
        } after{cfg, in};
        struct RunSpan {
            Interp& in;
            int64_t begin = events::now();
            ~RunSpan() {
                try {
                    capture::session(in).events.span("script", "run", events::Category::Phase, begin, events::now() - begin,
                                                     events::PhaseFacts{"", "", events::ScriptStep::Run});
                } catch (...) { // unwinding (a MemoryError, say): a lost event, never a second exception
                }
            }
        };
        try {
            RunSpan span{in};
            in.runMain(job->mod);
        } catch (PyException& e) {
            if (in.isInstance(e.exc, in.systemExit.get())) {
                Value args = e.exc.as<InstanceObj>()->attrs["args"];
                auto& items = args.as<TupleObj>()->items;
                if (items.empty() || items[0].isNone()) r.exitCode = 0;
                else if (items[0].isIntLike()) r.exitCode = int(items[0].i() & 0xff);
                else { emitErr(in.str(items[0]) + "\n"); r.exitCode = 1; }
                r.status = r.exitCode == 0 ? RunStatus::Ok : RunStatus::ScriptError;
            } else {
                r.status = RunStatus::ScriptError;
                r.exitCode = 1;
                for (auto it = e.traceback.rbegin(); it != e.traceback.rend(); ++it)
                    if (it->file == cfg.path) { r.errorLine = it->line; break; }
                emitErr(in.formatException(e));
            }
        }
    } catch (Cancelled&) {
        r.status = job->cfg->cancel && job->cfg->cancel->cancelled() ? RunStatus::Cancelled : RunStatus::Timeout;
    } catch (std::bad_alloc&) {
        fail(RunStatus::ScriptError, 1, "MemoryError: out of memory\n");
    } catch (NestingTooDeep&) {
        fail(RunStatus::ScriptError, 1, "RecursionError: maximum recursion depth exceeded while hashing or comparing nested keys\n");
    } catch (PyException&) {
        fail(RunStatus::InternalError, 70, "fuselab: internal error while setting up the interpreter\n");
    } catch (ControlSignal&) {
        fail(RunStatus::InternalError, 70, "fuselab: internal error: a graph break escaped the compiled frame\n");
    } catch (std::exception& e) {
        fail(RunStatus::InternalError, 70, std::string("fuselab: internal error: ") + e.what() + "\n");
    } catch (...) {
        fail(RunStatus::InternalError, 70, "fuselab: internal error\n");
    }
    {
        std::lock_guard<std::mutex> lock(job->shared->mu);
        job->shared->done = true;
    }
    job->shared->cv.notify_all();
    return nullptr;
}

} // namespace

RunResult runScript(const RunConfig& cfg) {
    auto t0 = std::chrono::steady_clock::now();
    RunResult r;
    auto emitErr = [&](const std::string& s) {
        r.message = s;
        if (cfg.err) cfg.err(s);
        else std::cerr << s;
    };
    std::string source = cfg.source;
    if (!cfg.haveSource) {
        std::ifstream f(cfg.path, std::ios::binary);
        if (!f) {
            r.status = RunStatus::CannotRead;
            r.exitCode = 2;
            emitErr("fuselab: can't open file '" + cfg.path + "': No such file or directory\n");
            return r;
        }
        std::stringstream ss;
        ss << f.rdbuf();
        source = ss.str();
    }
    std::shared_ptr<Module> mod;
    const int64_t parseBegin = events::now();
    try {
        mod = parseModule(source, cfg.path);
    } catch (SyntaxError& e) {
        r.status = RunStatus::SyntaxError;
        r.exitCode = 1;
        r.errorLine = e.line;
        emitErr(formatSyntaxError(e, source));
        return r;
    }

    // The interpreter runs on its own thread with a large stack: Python recursion up to the
    // recursion limit must never overflow the C++ stack.
    CancelToken stop;
    Shared shared;
    Job job{&cfg, &stop, &r, mod, &shared, parseBegin, events::now() - parseBegin};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, size_t(512) << 20);
    pthread_t th;
    if (pthread_create(&th, &attr, runJob, &job) != 0) {
        pthread_attr_destroy(&attr);
        r.status = RunStatus::InternalError;
        r.exitCode = 70;
        emitErr("fuselab: could not start the interpreter thread\n");
        return r;
    }
    pthread_attr_destroy(&attr);

    // No limit unless it is a positive number of seconds the clock can count to (a year at most:
    // 1e300 s would overflow the conversion and fire at once).
    const bool limited = cfg.timeoutSeconds > 0 && cfg.timeoutSeconds <= 365.0 * 24 * 3600;
    auto deadline = limited ? t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(cfg.timeoutSeconds))
                            : std::chrono::steady_clock::time_point::max();
    bool timedOut = false;
    {
        std::unique_lock<std::mutex> lock(shared.mu);
        while (!shared.done) {
            shared.cv.wait_for(lock, std::chrono::milliseconds(20));
            if (shared.done) break;
            if (cfg.cancel && cfg.cancel->cancelled()) stop.cancel();
            if (std::chrono::steady_clock::now() >= deadline && !timedOut) {
                timedOut = true;
                stop.cancel();
            }
            // A single long tensor op cannot be interrupted: give it a grace period, then stop hard.
            if (timedOut && cfg.hardExitOnStuckTimeout && std::chrono::steady_clock::now() >= deadline + std::chrono::seconds(5)) {
                lock.unlock();
                std::cout.flush();
                std::ostringstream os;
                os << "fuselab: timed out after " << cfg.timeoutSeconds << " s\n";
                std::string msg = os.str();
                if (cfg.err) cfg.err(msg);
                else std::cerr << msg;
                std::cerr.flush();
                _exit(124);
            }
        }
    }
    pthread_join(th, nullptr);
    if (timedOut && r.status != RunStatus::Ok && r.status != RunStatus::ScriptError) r.status = RunStatus::Timeout;
    if (r.status == RunStatus::Timeout) {
        r.exitCode = 124;
        std::ostringstream os;
        os << "fuselab: timed out after " << cfg.timeoutSeconds << " s (--timeout)\n";
        emitErr(os.str());
    } else if (r.status == RunStatus::Cancelled) {
        r.exitCode = 130;
        emitErr("fuselab: run cancelled\n");
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

} // namespace fl::run
