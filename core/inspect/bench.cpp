// `fuselab bench` measurements (see bench.h). Includes LibTorch.
#include "core/inspect/bench.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/csrc/autograd/autograd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "core/jit/jit.h"
#include "core/runtime/blas.h"
#include "core/script/interp.h"
#include "core/script/tensor_obj.h"

#ifndef TORCH_VERSION_STRING
#include <torch/csrc/api/include/torch/version.h>
#endif

namespace fl::inspect {

using runtime::Compiled;
using runtime::compiledOf;
using runtime::threads;
using runtime::blasCore;
using runtime::blasChoiceNote;
using runtime::GradModeScope;

using script::Value;
using script::OK;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string cpuModel() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("model name", 0) == 0) {
            auto p = line.find(':');
            return p == std::string::npos ? line : line.substr(p + 2);
        }
    return "unknown CPU";
}

namespace {

double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

void flattenTensors(const Value& v, std::vector<at::Tensor>& out) {
    if (v.isTensor()) out.push_back(script::tensorOf(v));
    else if (v.is(OK::Tuple)) for (auto& x : v.as<script::TupleObj>()->items) flattenTensors(x, out);
    else if (v.is(OK::List)) for (auto& x : v.as<script::ListObj>()->items) flattenTensors(x, out);
}

std::string signature(script::Interp& in, const script::CallArgs& a) {
    std::string s;
    auto one = [&](const Value& v) {
        if (v.isTensor()) {
            const at::Tensor& t = script::tensorOf(v);
            s += std::string(t.scalar_type() == at::kFloat ? "f32" : c10::toString(t.scalar_type())) + "[";
            for (int64_t d = 0; d < t.dim(); ++d) s += (d ? ", " : "") + std::to_string(t.size(d));
            s += "]";
        } else {
            s += in.repr(v);
        }
    };
    for (auto& v : a.pos) { if (!s.empty()) s += ", "; one(v); }
    for (auto& [k, v] : a.kw) { if (!s.empty()) s += ", "; s += k + "="; one(v); }
    return s;
}

} // namespace

void backwardOf(const Value& result) {
    std::vector<at::Tensor> all, outs, grads;
    flattenTensors(result, all);
    for (auto& t : all)
        if (t.requires_grad() && at::isFloatingType(t.scalar_type())) {
            outs.push_back(t);
            grads.push_back(at::ones_like(t));
        }
    if (!outs.empty()) torch::autograd::backward(outs, grads);
}

std::string spreadNote(const std::string& kind, const std::vector<double>& samples) {
    if (samples.empty()) return "";
    double lo = *std::min_element(samples.begin(), samples.end()), hi = *std::max_element(samples.begin(), samples.end());
    double med = median(samples);
    if (!(lo > 0) || med < kSpreadRatio * lo) return "";
    char b[256];
    std::snprintf(b, sizeof b, "%s runs took %.3g-%.3g ms (median %.3g): some stalled, so the median is not this call's steady time; run the bench again",
                  kind.c_str(), lo, hi, med);
    return b;
}

// See bench.h. The probes (the bench's 64 MiB copy) come at the start of an even round, between
// two blocks of a, at most one per o.probeEveryMs. Next to a block of b a copy would time
// LibTorch's workers spinning after eager's ops on the cores it needs (transformer_block: 12.5
// GB/s against 26.5 GB/s before and after the calls), and a block of b right after a copy would
// start with its workers asleep (seed_mlp_b32's 0.15 ms eager call took 1.7-8.0 ms in 10 of 12
// runs when each of its rounds timed a copy).
AlternatingTimes timeAlternating(const BenchOptions& o, Settle settleA, Settle settleB, const std::function<void()>& a,
                                 const std::function<void()>& b, const std::function<double()>& probe,
                                 const std::function<double()>& clockMs) {
    AlternatingTimes t;
    const Clock::time_point epoch = Clock::now();
    auto now = [&] { return clockMs ? clockMs() : ms(epoch, Clock::now()); };
    const double start = now();
    std::optional<double> lastProbe;
    auto probeIfDue = [&] {
        if (!probe || (lastProbe && now() - *lastProbe < o.probeEveryMs)) return;
        double sample = probe();
        lastProbe = now();
        if (sample > 0) t.probe.push_back(sample);
    };
    auto block = [&](const std::function<void()>& f, std::vector<double>& samples, Settle settle) {
        const double s0 = now();
        for (int i = 0; i < std::max(1, settle.maxRuns) && (i == 0 || now() - s0 < settle.ms); ++i) f();
        for (int i = 0; i < AlternatingTimes::kTimed; ++i) {
            const double s = now();
            f();
            samples.push_back(now() - s);
        }
    };
    auto blockA = [&] { block(a, t.a, settleA); };
    auto blockB = [&] { block(b, t.b, settleB); };
    for (int round = 0; int(t.a.size()) < o.maxRuns && (int(t.a.size()) < o.minRuns || now() - start < 2 * o.minSeconds * 1000);
         ++round) {
        if (round % 2 == 0) probeIfDue(), blockA(), blockB();
        else blockB(), blockA();
    }
    return t;
}

namespace {

std::string jsonStr(const std::string& s) {
    std::string r = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') r += '\\', r += c;
        else if (c == '\n') r += "\\n";
        else if (uint8_t(c) < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); r += b; }
        else r += c;
    }
    return r + "\"";
}
std::string num(double v) {
    if (!std::isfinite(v)) return "null";
    char b[64];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}

// The script's frames at a recorded call, put back under its first replay for as long as this
// lives: a replay that traces again then names the same script lines in its kernels' comments, and
// so compiles the very source (and cache entry) the script's call did. Only the first call traces;
// the timed calls run as before, on the frames the bench has.
struct ScriptFrames {
    std::vector<script::Frame>& frames;
    size_t depth;
    ScriptFrames(std::vector<script::Frame>& f, const std::vector<script::Frame>& at) : frames(f), depth(f.size()) {
        frames.insert(frames.end(), at.begin(), at.end());
    }
    ~ScriptFrames() { frames.resize(depth); }
};

// Jit::setFreshProcessView for as long as this lives.
struct FreshProcessView {
    FreshProcessView() { jit::Jit::instance().setFreshProcessView(true); }
    ~FreshProcessView() { jit::Jit::instance().setFreshProcessView(false); }
};

// The machine's copy bandwidth: a parallel memcpy of 64 MiB on threads() threads, between two
// buffers allocated and written once (2 MiB-aligned: no page faults inside a timed copy).
class CopyProbe {
public:
    static constexpr size_t kBytes = size_t(64) << 20;
    // Untimed copies before each probe's timed one. Repeated copies speed up over their first
    // several repetitions (seen 27 -> 33 GB/s over 20 back to back, the 64 MiB buffers settling
    // into the caches), and the calls' timed runs repeat too: with 1 or 2 untimed copies the probes
    // measured 20-27 GB/s against 26-35 GB/s for the copies before and after the calls, with 5
    // 23-31 against 27-33 (softmax_rows, rmsnorm, pointwise_chain, 2026-12-04).
    static constexpr int kProbeWarmUps = 5;
    CopyProbe()
        : a_(static_cast<char*>(std::aligned_alloc(size_t(2) << 20, kBytes))), b_(static_cast<char*>(std::aligned_alloc(size_t(2) << 20, kBytes))) {
        if (!ok()) return;
        std::memset(a_, 1, kBytes);
        std::memset(b_, 0, kBytes);
    }
    ~CopyProbe() {
        std::free(a_);
        std::free(b_);
    }
    CopyProbe(const CopyProbe&) = delete;
    CopyProbe& operator=(const CopyProbe&) = delete;
    bool ok() const { return a_ && b_; }
    void copy() const {
        if (!ok()) return;
        const size_t n = kBytes;
        int parts = threads();
        std::vector<std::thread> th;
        for (int i = 1; i < parts; ++i)
            th.emplace_back([&, i] { std::memcpy(b_ + n * i / parts, a_ + n * i / parts, n * (i + 1) / parts - n * i / parts); });
        std::memcpy(b_, a_, n / parts);
        for (auto& x : th) x.join();
    }
    // Milliseconds of one copy after `warmUps` untimed ones (0 when the buffers could not be had).
    double timedCopy(int warmUps) const {
        if (!ok()) return 0;
        for (int i = 0; i < warmUps; ++i) copy();
        auto s = Clock::now();
        copy();
        return ms(s, Clock::now());
    }
    // Milliseconds of each of `reps` copies, after two warm-up copies.
    std::vector<double> samples(int reps) const {
        std::vector<double> t;
        for (int rep = 0; ok() && rep < reps; ++rep) t.push_back(timedCopy(rep == 0 ? 2 : 0));
        return t;
    }

private:
    char* a_;
    char* b_;
};

double copyGbps(const std::vector<double>& samples) {
    double m = median(samples);
    return m > 0 ? 2.0 * double(CopyProbe::kBytes) / (m * 1e6) : 0;
}

} // namespace

std::pair<const void*, std::string> callIdentity(const capture::Session::RecordedCall& rc, const std::string& inputs) {
    std::string key = inputs + (rc.gradMode ? "|grad" : "|no_grad");
    if (!rc.fn.is(OK::BoundMethod)) return {rc.fn.obj(), key};
    // a module's forward is a new bound method on each call: the function and its receiver identify it
    auto* bm = rc.fn.as<script::BoundMethodObj>();
    return {bm->func.obj(), std::to_string(reinterpret_cast<uintptr_t>(bm->self.obj())) + "|" + key};
}

CallSite callSite(const capture::Session::RecordedCall& rc) {
    CallSite site;
    Value target = rc.fn.is(OK::BoundMethod) ? rc.fn.as<script::BoundMethodObj>()->func : rc.fn;
    if (target.is(OK::Function)) {
        auto* fo = target.as<script::FunctionObj>();
        site.function = fo->qualname.empty() ? fo->name : fo->qualname;
        if (fo->def) site.line = fo->def->span.line;
        else if (fo->lambda) site.line = fo->lambda->span.line;
        if (fo->ast) site.file = fo->ast->filename;
    }
    // a module from the nn prelude: name the script line that called it instead (the innermost
    // user frame at the call)
    if (site.file.empty() || site.file.rfind("<fuselab:", 0) == 0)
        for (auto it = rc.stack.rbegin(); it != rc.stack.rend(); ++it)
            if (it->module && it->module->filename.rfind("<fuselab:", 0) != 0) {
                if (it->line > 0) {
                    site.file = it->module->filename;
                    site.line = it->line;
                }
                break;
            }
    return site;
}

BenchReport runBench(script::Interp& in, const BenchOptions& opts) {
    BenchReport r;
    r.machine = cpuModel();
    r.cores = int(std::thread::hardware_concurrency());
    r.libtorch = TORCH_VERSION;
    r.threads = threads();
    r.compiler = jit::Jit::instance().backendName();
    r.blas = blasCore();
    r.blasNote = blasChoiceNote();
    // the copy is timed before the calls and again after them, and the samples pooled: on a
    // shared machine the bandwidth moves, and the calls ran in between; each call also times it
    // between its own blocks (the figure its % of copy divides by)
    CopyProbe probe;
    std::vector<double> copy = probe.samples(20);
    capture::Session& s = capture::session(in);
    std::vector<capture::Session::RecordedCall> calls = s.recorded;
    s.recordCalls = false;
    std::set<std::pair<const void*, std::string>> seen;
    for (auto& rc : calls) {
        std::string sig = signature(in, rc.args);
        if (!seen.insert(callIdentity(rc, sig)).second) continue;
        // the call's grad mode, as the script made it (a call under torch.no_grad() is replayed so)
        GradModeScope gradMode(rc.gradMode);
        BenchCall bc;
        bc.inputs = sig;
        bc.gradMode = rc.gradMode;
        CallSite site = callSite(rc);
        bc.function = site.function;
        bc.file = site.file;
        bc.line = site.line;
        Value fn = rc.fn;
        // first call: every compiled frame forgotten, the kernels' memory cache too, and the disk
        // cache seen as the process found it (the script's own run has written its kernels there)
        s.resetFrames();
        jit::Jit::instance().clearMemoryCache();
        {
            FreshProcessView fresh;
            ScriptFrames frames(in.frames(), rc.stack);
            script::CallArgs a = rc.args;
            auto t0 = Clock::now();
            s.callCompiled(fn, a, rc.opts);
            bc.firstCallMs = ms(t0, Clock::now());
        }
        // the entry that call compiled
        const capture::Entry* entry = nullptr;
        for (auto* fr : s.framesInOrder())
            for (auto& e : fr->entries)
                if (compiledOf(*e)) entry = e.get();
        if (entry && compiledOf(*entry)) {
            const Compiled& c = *compiledOf(*entry);
            bc.phases = c.phases;
            bc.compileMs = c.phases.total();
            bc.kernels = int(c.kernels.size());
            for (auto& n : c.lowered.program.nodes) {
                if (n.kind == lower::NodeKind::Extern) ++bc.externs;
                if (lower::isEagerOp(n)) ++bc.fallbacks;
            }
            bc.cache = c.cache == "miss" ? "miss" : "hit";
            bc.jit = c.jitBackend;
            if (!c.ok) bc.note = c.error;
            if (capture::BackwardFacts bf = c.backwardFacts(); bf.present && rc.gradMode) {
                bc.training = true;
                bc.backward = bf.compiled ? "compiled" : "eager (" + bf.why + ")";
            }
        } else {
            bc.note = "no graph was compiled for this call";
        }
        // How long each kind's blocks settle before their timed runs. A call of kernels only: both
        // kinds for 20 ms. After a block of the other kind a call runs slow for about that long
        // (LibTorch's OpenMP workers spin for milliseconds after eager's ops, on the cores the
        // kernels' pool needs; each kind's data comes back into the caches): softmax_rows' cached
        // runs took a median 1.92 ms in the first 5 ms after an eager block, 1.47 in the next 5,
        // 1.13, 1.07, then 1.06 from 20 ms on, and its eager runs 4.28, 3.86, 3.73, 3.70 ms, then
        // 3.05-3.47 (LibTorch 1.13, 2 threads, 2026-12-06). A call with library calls: the cached
        // call for 8 ms, at most 4 runs, and eager for one run. OpenBLAS's threads spin for about
        // 0.1 s after each library call, longer than a block, and a longer cached block lets
        // LibTorch's OpenMP workers fall asleep, after which eager's next calls wait for them on
        // scheduler ticks: seed_mlp_b32's 0.10 ms eager call took a median 3.8 ms in both runs with
        // 20 ms blocks of each kind.
        const bool library = bc.externs > 0;
        Value compiled, eager;
        bool was = s.enabled;
        AlternatingTimes times = timeAlternating(
            opts, library ? opts.cachedBesideLibrary : opts.cached, library ? opts.eagerBesideLibrary : opts.eager,
            [&] {
                script::CallArgs x = rc.args;
                compiled = s.callCompiled(fn, x, rc.opts);
                if (bc.training) backwardOf(compiled);
            },
            [&] {
                s.enabled = false; // the same call, eagerly
                script::CallArgs x = rc.args;
                try {
                    eager = in.call(fn, x);
                    if (bc.training) backwardOf(eager);
                } catch (...) {
                    s.enabled = was;
                    throw;
                }
                s.enabled = was;
            },
            // no probes beside library calls: OpenBLAS's threads spin after each one (about 0.1 s)
            // on the cores a copy needs (seed_mlp_b32: 14.4 GB/s against 27.0 before and after)
            library ? std::function<double()>() : [&] { return probe.timedCopy(CopyProbe::kProbeWarmUps); });
        bc.cachedRuns = int(times.a.size());
        bc.cachedMs = median(times.a);
        bc.eagerMs = median(times.b);
        bc.eagerRuns = int(times.b.size());
        bc.bytesMin = s.lastGraph.bytesIn + s.lastGraph.bytesOut;
        if (entry && compiledOf(*entry) && compiledOf(*entry)->fallbacks > 0 && bc.note.empty())
            bc.note = "cached calls took the reference path (inputs differ from the traced ones)";
        for (auto [kind, samples] : {std::pair{"cached", &times.a}, std::pair{"eager", &times.b}}) {
            std::string spread = spreadNote(kind, *samples);
            if (!spread.empty()) bc.note += (bc.note.empty() ? "" : "; ") + spread;
        }
        std::vector<at::Tensor> ct, et;
        flattenTensors(compiled, ct);
        flattenTensors(eager, et);
        for (size_t i = 0; i < ct.size() && i < et.size(); ++i) {
            if (ct[i].sizes() != et[i].sizes()) { bc.maxAbsDiff = INFINITY; break; }
            if (!ct[i].numel()) continue;
            double d = (ct[i].to(at::kDouble) - et[i].to(at::kDouble)).abs().max().item<double>();
            if (std::isnan(d)) d = INFINITY;
            bc.maxAbsDiff = std::max(bc.maxAbsDiff, d);
        }
        bc.speedup = bc.cachedMs > 0 ? bc.eagerMs / bc.cachedMs : 0;
        bc.achievedGbps = bc.cachedMs > 0 ? double(bc.bytesMin) / (bc.cachedMs * 1e6) : 0;
        bc.copyGbps = copyGbps(times.probe);
        bc.copyProbes = int(times.probe.size());
        r.calls.push_back(bc);
    }
    std::vector<double> after = probe.samples(20);
    copy.insert(copy.end(), after.begin(), after.end());
    r.copyGbps = copyGbps(copy);
    for (auto& c : r.calls)
        if (c.copyProbes == 0) c.copyGbps = r.copyGbps; // not probed: the copy before and after
    return r;
}

std::string benchText(const BenchReport& r) {
    std::ostringstream o;
    o << "machine: " << r.machine << ", " << r.cores << " cores; LibTorch " << r.libtorch << " (BLAS: " << (r.blas.empty() ? "not OpenBLAS" : r.blas)
      << "); kernels compiled by " << r.compiler << "\n";
    if (!r.blasNote.empty()) o << "BLAS: " << r.blasNote << "\n";
    o << "threads: " << r.threads << "; copy bandwidth: " << num(r.copyGbps) << " GB/s (read + write; before and after the calls)\n\n";
    char b[512];
    std::snprintf(b, sizeof b, "%-28s %10s %10s %10s %10s %8s %10s %8s %7s %6s\n", "call", "first ms", "compile", "cached ms", "eager ms", "speedup",
                  "max|diff|", "GB/s", "%copy", "cache");
    o << b;
    for (auto& c : r.calls) {
        std::string name = c.function + ":" + std::to_string(c.line);
        std::snprintf(b, sizeof b, "%-28s %10.2f %10.2f %10.4f %10.4f %7.2fx %10.2e %8.2f %6.0f%% %6s\n", name.c_str(), c.firstCallMs, c.compileMs,
                      c.cachedMs, c.eagerMs, c.speedup, c.maxAbsDiff, c.achievedGbps, c.copyGbps > 0 ? 100 * c.achievedGbps / c.copyGbps : 0.0,
                      c.cache.c_str());
        o << b;
        std::snprintf(b, sizeof b, "    inputs %s%s; %d kernels, %d library calls, %d eager ops; phases ms: trace %.2f lower %.2f fuse %.2f codegen %.2f jit %.2f (%s)\n",
                      c.inputs.c_str(), c.gradMode ? "" : " (under torch.no_grad())", c.kernels, c.externs, c.fallbacks, c.phases.trace, c.phases.lower, c.phases.fuse, c.phases.codegen, c.phases.jit,
                      c.jit.empty() ? "-" : c.jit.c_str());
        o << b;
        if (c.copyProbes > 0)
            std::snprintf(b, sizeof b, "    copy bandwidth between its runs: %.4g GB/s (%d cop%s; %%copy divides by it)\n", c.copyGbps, c.copyProbes,
                          c.copyProbes == 1 ? "y" : "ies");
        else
            std::snprintf(b, sizeof b, "    %%copy divides by the copy before and after the calls (OpenBLAS's threads spin after its library calls)\n");
        o << b;
        if (c.training) o << "    each run is a training step's share: the call and backward() of its outputs; backward " << c.backward << "\n";
        if (!c.note.empty()) o << "    note: " << c.note << "\n";
    }
    if (r.calls.empty()) o << "(no compiled calls: the script called no torch.compile'd function or module)\n";
    return o.str();
}

std::string benchJson(const BenchReport& r) {
    std::ostringstream o;
    o << "{\"machine\": {\"cpu\": " << jsonStr(r.machine) << ", \"cores\": " << r.cores << ", \"libtorch\": " << jsonStr(r.libtorch)
      << ", \"blas\": " << jsonStr(r.blas) << ", \"blas_note\": " << jsonStr(r.blasNote) << ", \"compiler\": " << jsonStr(r.compiler) << "},\n \"threads\": " << r.threads << ", \"copy_gbps\": " << num(r.copyGbps) << ",\n \"calls\": [";
    for (size_t i = 0; i < r.calls.size(); ++i) {
        const BenchCall& c = r.calls[i];
        o << (i ? ",\n  " : "\n  ") << "{\"function\": " << jsonStr(c.function) << ", \"file\": " << jsonStr(c.file) << ", \"line\": " << c.line
          << ", \"inputs\": " << jsonStr(c.inputs) << ", \"grad_mode\": " << (c.gradMode ? "true" : "false") << ", \"first_call_ms\": " << num(c.firstCallMs) << ", \"compile_ms\": " << num(c.compileMs)
          << ", \"phases_ms\": {\"trace\": " << num(c.phases.trace) << ", \"lower\": " << num(c.phases.lower) << ", \"fuse\": " << num(c.phases.fuse)
          << ", \"codegen\": " << num(c.phases.codegen) << ", \"jit\": " << num(c.phases.jit) << "}"
          << ", \"cached_ms\": " << num(c.cachedMs) << ", \"eager_ms\": " << num(c.eagerMs) << ", \"speedup\": " << num(c.speedup)
          << ", \"max_abs_diff\": " << num(c.maxAbsDiff) << ", \"bytes_min\": " << c.bytesMin << ", \"achieved_gbps\": " << num(c.achievedGbps)
          << ", \"copy_gbps\": " << num(c.copyGbps) << ", \"copy_probes\": " << c.copyProbes
          << ", \"kernels\": " << c.kernels << ", \"externs\": " << c.externs << ", \"fallback_ops\": " << c.fallbacks
          << ", \"cache\": " << jsonStr(c.cache) << ", \"jit\": " << jsonStr(c.jit) << ", \"cached_runs\": " << c.cachedRuns
          << ", \"eager_runs\": " << c.eagerRuns << ", \"training\": " << (c.training ? "true" : "false")
          << ", \"backward\": " << jsonStr(c.backward) << ", \"note\": " << jsonStr(c.note) << "}";
    }
    o << "\n ]}\n";
    return o.str();
}

} // namespace fl::inspect
