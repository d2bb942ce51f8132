#include "profiler/profile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "core/capture/capture.h"
#include "core/jit/jit.h"
#include "core/inspect/bench.h"
#include "core/runtime/runtime.h"
#include "core/script/interp.h"
#include "core/support/events.h"

#ifndef FUSELAB_TORCH_VERSION
#define FUSELAB_TORCH_VERSION "unknown"
#endif
#ifndef FUSELAB_VERSION
#define FUSELAB_VERSION "unknown"
#endif

namespace fl::profiler {

using script::Value;
using script::OK;
using inspect::cpuModel;
using inspect::median;

namespace {

std::string fmt(const char* f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

std::string argText(const events::Arg& a) {
    if (!a.isNumber) return a.text;
    double r = std::round(a.number);
    return std::fabs(a.number - r) < 1e-9 && std::fabs(r) < 1e15 ? std::to_string((long long)r) : fmt("%.6g", a.number);
}

std::vector<std::pair<std::string, std::string>> argsOf(const events::Event& e) {
    std::vector<std::pair<std::string, std::string>> r;
    for (auto& a : e.args()) r.emplace_back(a.key, argText(a));
    return r;
}

// "torch.Size([32, 256]) torch.float32, 2" without LibTorch: through the script's own attributes.
std::string signature(script::Interp& in, const script::CallArgs& a) {
    std::string s;
    auto one = [&](const Value& v) {
        if (v.isTensor()) {
            Value shape, dtype;
            std::string t;
            if (in.tryGetAttr(v, "shape", shape)) t = in.repr(shape);
            if (in.tryGetAttr(v, "dtype", dtype)) t += " " + in.repr(dtype);
            s += "Tensor(" + t + ")";
        } else if (v.is(OK::Instance)) {
            s += "<" + in.repr(v).substr(0, 40) + ">";
        } else {
            std::string r = in.repr(v);
            s += r.size() > 60 ? r.substr(0, 57) + "..." : r;
        }
    };
    for (auto& v : a.pos) { if (!s.empty()) s += ", "; one(v); }
    for (auto& [k, v] : a.kw) { if (!s.empty()) s += ", "; s += k + "="; one(v); }
    return s;
}

// Where each compiled graph (by cache key) lives: its compile id and the script lines of its nodes.
struct GraphInfo {
    std::string id;
    const runtime::Compiled* compiled = nullptr;
    const capture::CapturedGraph* graph = nullptr;
};

std::vector<int> linesOfNodes(const GraphInfo& gi, const std::vector<int>& programNodes) {
    std::set<int> lines;
    if (!gi.compiled || !gi.graph) return {};
    const auto& p = gi.compiled->lowered.program;
    for (int pn : programNodes) {
        if (pn < 0 || pn >= int(p.nodes.size())) continue;
        for (int gn : p.nodes[pn].fromGraphNodes)
            if (gn >= 0 && gn < int(gi.graph->nodes.size()) && gi.graph->nodes[gn].span.line > 0) lines.insert(gi.graph->nodes[gn].span.line);
    }
    return {lines.begin(), lines.end()};
}

// One profiled cached call, taken apart from the events recorded while it ran.
struct CallBreakdown {
    double totalMs = 0, guardNs = 0, graphMs = 0, launchedMs = 0;
};

template <class F>
std::vector<double> timeRuns(double seconds, int minRuns, int maxRuns, F&& f) {
    std::vector<double> t;
    const events::Ns start = events::now();
    while (int(t.size()) < maxRuns && (int(t.size()) < minRuns || events::msBetween(start, events::now()) < seconds * 1000)) {
        events::Ns a = events::now();
        f();
        t.push_back(events::msBetween(a, events::now()));
    }
    return t;
}

bool isLaunch(events::Category c) { return c == events::Category::Kernel || c == events::Category::Extern || c == events::Category::Fallback; }

} // namespace

std::string CallProfile::breakEven() const {
    if (compileIds.empty()) return "n/a";
    if (breakEvenCalls < 0) return "never";
    std::string s = std::to_string(breakEvenCalls) + " calls";
    if (breakEvenLow >= 0 && (breakEvenLow != breakEvenCalls || breakEvenHigh != breakEvenCalls))
        s += " (" + std::to_string(breakEvenLow) + " to " + (breakEvenHigh < 0 ? std::string("never") : std::to_string(breakEvenHigh)) +
             " over the middle half of the runs)";
    return s;
}

namespace {
// the q-quantile of v (0 <= q <= 1), by nearest rank
double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t i = size_t(std::lround(q * double(v.size() - 1)));
    return v[std::min(i, v.size() - 1)];
}
} // namespace

void prepare(script::Interp& in) {
    capture::session(in).recordCalls = true;
    capture::session(in).events.setLevel(events::Level::Kernels);
}

// Long: the profile's passes over the event log in order (compiles, calls, kernels, replays), each
// reading what the one before built.
Profile collect(script::Interp& in, const CollectOptions& opts) {
    Profile p;
    capture::Session& s = capture::session(in);
    p.machine = cpuModel();
    p.cores = int(std::thread::hardware_concurrency());
    p.threads = runtime::threads();
    p.libtorch = FUSELAB_TORCH_VERSION;
    p.fuselab = FUSELAB_VERSION;
    p.compiler = jit::Jit::instance().backendName();
    const events::Level runLevel = s.events.level();

    std::vector<events::Event> ev = s.events.snapshot();
    p.droppedEvents = s.events.dropped();
    events::Ns origin = ev.empty() ? events::now() : ev.front().begin;
    for (auto& e : ev) origin = std::min(origin, e.begin);
    auto rel = [&](events::Ns t) { return double(t - origin) * 1e-6; };

    // compiled graphs by compile id (kernel events name their graph so); again after each replay,
    // which may have compiled more
    std::map<std::string, GraphInfo> graphs;
    auto findGraphs = [&] {
        for (auto* fr : s.framesInOrder())
            for (auto& e : fr->entries)
                if (const runtime::Compiled* c = runtime::compiledOf(*e)) {
                    graphs[e->id] = GraphInfo{e->id, c, &e->graph};
                    // compiled training's two graphs name their kernels "0/0 training forward", "0/0 backward"
                    if (const runtime::TrainingCode* tc = c->training.get()) {
                        if (tc->forward) graphs[tc->forward->compileId] = GraphInfo{tc->forward->compileId, tc->forward.get(), &tc->forwardGraph};
                        if (tc->backward) graphs[tc->backward->compileId] = GraphInfo{tc->backward->compileId, tc->backward.get(), &tc->backwardGraph};
                    }
                }
    };
    findGraphs();

    auto convert = [&](const std::vector<events::Event>& list, const std::string& prefix) {
        for (auto& e : list) {
            if (e.kind == events::Kind::Span) {
                SpanEvent se{prefix + e.track, e.name, events::categoryName(e.category), rel(e.begin), double(e.dur) * 1e-6, argsOf(e)};
                if (auto* k = e.as<events::KernelFacts>()) { // a launch: its graph by compile id, an extern's epilogue by name
                    auto g = graphs.find(k->graph);
                    if (g != graphs.end() && k->epilogue >= 0 && k->epilogue < int(g->second.compiled->kernels.size()))
                        se.name += " + " + g->second.compiled->kernels[k->epilogue].name;
                }
                p.spans.push_back(std::move(se));
            } else if (e.kind == events::Kind::Counter) {
                p.counters.push_back({prefix + e.track, e.name, rel(e.begin), e.value});
            } else {
                InstantEvent x;
                x.kind = e.name;
                x.atMs = rel(e.begin);
                x.args = argsOf(e);
                x.isBreak = e.category == events::Category::Break;
                if (auto* b = e.as<events::BreakFacts>()) x.id = b->id, x.reason = b->reason, x.file = b->file, x.line = b->line;
                if (auto* r = e.as<events::RecompileFacts>()) x.id = r->id, x.reason = r->reason, x.file = r->file, x.line = r->line;
                p.instants.push_back(x);
            }
        }
    };
    convert(ev, "");

    // ---- compile ids
    for (auto& e : ev) {
        if (e.kind != events::Kind::Span) continue;
        if (auto* ph = e.as<events::PhaseFacts>()) {
            const double ms = double(e.dur) * 1e-6;
            if (ph->step == events::ScriptStep::Parse) {
                p.parseMs += ms;
                if (!ph->file.empty() && p.file.empty()) p.file = ph->file; // the runner names the script
            }
            if (ph->step == events::ScriptStep::StartUp) p.startupMs += ms;
            if (ph->step == events::ScriptStep::Run) p.runMs += ms;
        }
        const auto* cf = e.as<events::CompileFacts>();
        if (!cf) continue;
        CompileProfile c;
        c.id = cf->id;
        c.function = cf->function;
        c.file = cf->file;
        c.status = cf->status;
        c.cache = cf->cache;
        c.jit = cf->jit;
        c.line = cf->line;
        c.kernels = cf->kernels;
        c.startMs = rel(e.begin);
        c.firstCallMs = double(e.dur) * 1e-6;
        for (auto& ph : ev)
            if (ph.kind == events::Kind::Span && ph.category == events::Category::Phase && ph.track == e.track) {
                c.phases.push_back({ph.name, rel(ph.begin), double(ph.dur) * 1e-6});
                c.phaseSumMs += double(ph.dur) * 1e-6;
                if (ph.name != "first run") c.compileMs += double(ph.dur) * 1e-6;
            }
        std::stable_sort(c.phases.begin(), c.phases.end(), [](auto& a, auto& b) { return a.startMs < b.startMs; });
        for (auto& ph : ev)
            if (ph.kind == events::Kind::Span && ph.category == events::Category::Phase &&
                (ph.track == "training " + c.id || ph.track == "backward " + c.id)) {
                c.trainingPhases.push_back({ph.name, rel(ph.begin), double(ph.dur) * 1e-6});
                if (ph.track == "backward " + c.id) c.backwardCompileMs += double(ph.dur) * 1e-6;
            }
        p.compiles.push_back(c);
    }

    // ---- call sites: distinct (function, receiver, inputs) among the recorded calls
    std::vector<const events::Event*> callSpans(s.recorded.size(), nullptr);
    for (auto& e : ev)
        if (auto* call = e.as<events::CallFacts>(); call && e.kind == events::Kind::Span) {
            int idx = call->recordedIndex;
            if (idx >= 0 && idx < int(callSpans.size()) && !callSpans[idx]) callSpans[idx] = &e;
        }
    struct Site {
        size_t first;               // recorded index of its first call
        CallProfile prof;
    };
    std::vector<Site> sites;
    // each function's calls in the run and how many of them ran cached entries: a function whose
    // every call compiled anew never paid its compile back, whatever a cached replay costs
    struct Reuse { int calls = 0, cached = 0; };
    std::map<const void*, Reuse> reuse;
    for (size_t i = 0; i < s.recorded.size(); ++i) {
        Reuse& r = reuse[inspect::callIdentity(s.recorded[i], "").first];
        ++r.calls;
        if (const events::Event* cs = callSpans[i])
            if (auto* cf = cs->as<events::CallFacts>(); cf && !cf->compiling) ++r.cached;
    }
    std::set<std::pair<const void*, std::string>> seen;
    for (size_t i = 0; i < s.recorded.size(); ++i) {
        auto& rc = s.recorded[i];
        std::string sig = signature(in, rc.args);
        if (!seen.insert(inspect::callIdentity(rc, sig)).second) continue;
        Site site{i, {}};
        CallProfile& cp = site.prof;
        cp.inputs = rc.gradMode ? sig : sig + " (under torch.no_grad())";
        inspect::CallSite where = inspect::callSite(rc);
        cp.function = where.function;
        cp.file = where.file;
        cp.line = where.line;
        if (const events::Event* cs = callSpans[i]) {
            cp.firstCallMs = double(cs->dur) * 1e-6;
            for (auto& c : p.compiles) {
                double b = rel(cs->begin), e = b + cp.firstCallMs;
                if (c.startMs >= b && c.startMs <= e) {
                    cp.compileIds.push_back(c.id);
                    cp.compileMs += c.compileMs;
                }
            }
        }
        sites.push_back(std::move(site));
    }

    // ---- replays: cached (profiling off), eager, profiled (kernel timers on). What they print
    // (a print in a compiled function, logs of recompiles) is not the script's output: the
    // replays are silent, and the run's own output stays what `fuselab run` prints.
    const bool wasRecording = s.recordCalls;
    s.recordCalls = false;
    struct Silence {
        script::RunOptions& o;
        std::function<void(const std::string&)> out = o.out, err = o.err;
        Silence(script::RunOptions& opts) : o(opts) { o.out = o.err = [](const std::string&) {}; }
        ~Silence() { o.out = out, o.err = err; }
    } silence(in.options());
    const events::Ns budgetStart = events::now();
    auto remaining = [&] { return opts.budgetSeconds - events::msBetween(budgetStart, events::now()) * 1e-3; };
    size_t replayedSites = 0;
    std::vector<events::Event> replayEvents;
    if (opts.replay) {
        for (size_t si = 0; si < sites.size(); ++si) {
            double left = remaining();
            if (left <= 0) break;
            double per = std::min(opts.minSeconds, left / double(3 * (sites.size() - si)));
            auto& rc = s.recorded[sites[si].first];
            CallProfile& cp = sites[si].prof;
            try {
                // replay under the grad mode of the recorded call (a script's calls under no_grad
                // would otherwise fail the GLOBAL_STATE guard and recompile)
                runtime::GradModeScope grad(rc.gradMode);
                // cached calls with profiling off and with it on, alternating call by call so
                // that the machine's noise falls on both alike; only the profiled calls leave events
                const events::Level onLevel = opts.kernelTimers ? events::Level::Kernels : events::Level::Calls;
                s.events.setLevel(events::Level::Off);
                {
                    script::CallArgs x = rc.args; // warm-up
                    s.callCompiled(rc.fn, x, rc.opts);
                }
                size_t mark = s.events.size();
                std::vector<double> cached, prof;
                bool on = false;
                timeRuns(2 * per, 2 * opts.minRuns, 2 * opts.maxRuns, [&] {
                    s.events.setLevel(on ? onLevel : events::Level::Off);
                    events::Ns a = events::now();
                    script::CallArgs x = rc.args;
                    s.callCompiled(rc.fn, x, rc.opts);
                    (on ? prof : cached).push_back(events::msBetween(a, events::now()));
                    on = !on;
                });
                s.events.setLevel(events::Level::Off);
                cp.cachedMs = median(cached);
                cp.cachedQ1 = quantile(cached, 0.25);
                cp.cachedQ3 = quantile(cached, 0.75);
                cp.cachedRuns = int(cached.size());
                cp.profiledMs = median(prof);
                cp.profiledRuns = int(prof.size());

                bool was = s.enabled;
                s.enabled = false;
                struct Restore { capture::Session& s; bool was; ~Restore() { s.enabled = was; } } restore{s, was};
                auto eager = timeRuns(per, opts.minRuns, opts.maxRuns, [&] {
                    script::CallArgs x = rc.args;
                    in.call(rc.fn, x);
                });
                s.enabled = was;
                cp.eagerMs = median(eager);
                cp.eagerQ1 = quantile(eager, 0.25);
                cp.eagerQ3 = quantile(eager, 0.75);
                cp.eagerRuns = int(eager.size());

                // backward() of the call's outputs, compiled and eager, timed apart from the call
                // (after one untimed run: the first backward() compiles the backward graph)
                for (auto& id : cp.compileIds) {
                    auto g = graphs.find(id);
                    if (g == graphs.end() || !rc.gradMode) continue;
                    capture::BackwardFacts bf = g->second.compiled->backwardFacts();
                    if (!bf.present) continue;
                    cp.training = true;
                    cp.backward = bf.compiled ? "compiled" : "eager (" + bf.why + ")";
                }
                if (cp.training) {
                    std::vector<double> bwd, ebwd;
                    auto backwardAfter = [&](bool compiled, std::vector<double>* into) {
                        script::CallArgs x = rc.args;
                        s.enabled = compiled ? was : false;
                        script::Value out = compiled ? s.callCompiled(rc.fn, x, rc.opts) : in.call(rc.fn, x);
                        s.enabled = was;
                        events::Ns a = events::now();
                        inspect::backwardOf(out);
                        if (into) into->push_back(events::msBetween(a, events::now()));
                    };
                    backwardAfter(true, nullptr);
                    timeRuns(per, opts.minRuns, opts.maxRuns, [&] { backwardAfter(true, &bwd); });
                    backwardAfter(false, nullptr);
                    timeRuns(per, opts.minRuns, opts.maxRuns, [&] { backwardAfter(false, &ebwd); });
                    cp.backwardMs = median(bwd);
                    cp.backwardRuns = int(bwd.size());
                    cp.eagerBackwardMs = median(ebwd);
                    cp.eagerBackwardRuns = int(ebwd.size());
                }

                // profiled calls: every event of these calls is taken apart per call
                findGraphs();
                std::vector<events::Event> all = s.events.snapshot();
                std::vector<events::Event> mine(all.begin() + std::min(mark, all.size()), all.end());
                // split by call span (category "call"): children lie inside its window
                std::vector<CallBreakdown> per_call;
                struct Acc { KernelTime k; double sum = 0; int n = 0; };
                std::map<std::pair<std::string, std::string>, Acc> acc;
                std::vector<std::pair<std::string, std::string>> order;
                for (auto& e : mine) {
                    if (e.kind != events::Kind::Span || e.category != events::Category::Call) continue;
                    CallBreakdown b;
                    b.totalMs = double(e.dur) * 1e-6;
                    for (auto& x : mine) {
                        if (x.kind != events::Kind::Span || &x == &e || x.begin < e.begin || x.begin + x.dur > e.begin + e.dur) continue;
                        const auto* kf = x.as<events::KernelFacts>();
                        if (x.category == events::Category::Guard) b.guardNs += double(x.dur);
                        else if (x.category == events::Category::Graph) b.graphMs += double(x.dur) * 1e-6;
                        else if (isLaunch(x.category) && kf) {
                            b.launchedMs += double(x.dur) * 1e-6;
                            auto g = graphs.find(kf->graph);
                            std::string name = x.name;
                            int epi = kf->epilogue;
                            if (epi >= 0 && g != graphs.end() && epi < int(g->second.compiled->kernels.size()))
                                name += " + " + g->second.compiled->kernels[epi].name;
                            auto k = std::make_pair(g != graphs.end() ? g->second.id : std::string(), name);
                            auto it = acc.find(k);
                            if (it == acc.end()) {
                                Acc a;
                                a.k.name = name;
                                a.k.kind = events::categoryName(x.category);
                                if (g != graphs.end()) {
                                    a.k.graph = g->second.id;
                                    std::vector<int> nodes;
                                    if (x.category == events::Category::Kernel) {
                                        int ki = kf->kernel;
                                        if (ki >= 0 && ki < int(g->second.compiled->kernels.size())) nodes = g->second.compiled->kernels[ki].nodes;
                                    } else {
                                        nodes.push_back(kf->node);
                                        if (epi >= 0 && epi < int(g->second.compiled->kernels.size()))
                                            for (int n : g->second.compiled->kernels[epi].nodes) nodes.push_back(n);
                                    }
                                    a.k.lines = linesOfNodes(g->second, nodes);
                                }
                                it = acc.emplace(k, a).first;
                                order.push_back(k);
                            }
                            it->second.sum += double(x.dur) * 1e-6;
                            ++it->second.n;
                        }
                    }
                    per_call.push_back(b);
                }
                if (!per_call.empty()) {
                    std::vector<double> g, d, o, tot;
                    for (auto& b : per_call) {
                        g.push_back(b.guardNs);
                        d.push_back(std::max(0.0, b.graphMs - b.launchedMs));
                        o.push_back(std::max(0.0, b.totalMs - b.graphMs - b.guardNs * 1e-6));
                        tot.push_back(b.totalMs);
                    }
                    cp.guardNs = median(g);
                    cp.dispatchMs = median(d);
                    cp.otherMs = median(o);
                    double meanTotal = 0;
                    for (double t : tot) meanTotal += t;
                    meanTotal /= double(tot.size());
                    const double calls = double(per_call.size());
                    for (auto& k : order) {
                        Acc& a = acc[k];
                        a.k.count = int(std::lround(a.n / calls));
                        a.k.totalMs = a.sum / calls;
                        a.k.meanMs = a.n ? a.sum / a.n : 0;
                        a.k.share = meanTotal > 0 ? a.k.totalMs / meanTotal : 0;
                        cp.kernels.push_back(a.k);
                    }
                    std::stable_sort(cp.kernels.begin(), cp.kernels.end(), [](auto& a, auto& b) { return a.totalMs > b.totalMs; });
                    std::set<std::string> known;
                    for (auto& c : p.compiles) known.insert(c.id);
                    for (auto& k : cp.kernels)
                        if (!k.graph.empty() && !known.count(k.graph.substr(0, k.graph.find(' '))) && cp.note.empty())
                            cp.note = "the replays ran graph " + k.graph + ", compiled during the replay (a guard failed on the recorded inputs)";
                }
                // keep the first few profiled calls for the timeline
                int keptCalls = 0;
                events::Ns keepUntil = 0;
                for (auto& e : mine) {
                    if (e.kind == events::Kind::Span && e.category == events::Category::Call && keptCalls < 20) {
                        ++keptCalls;
                        keepUntil = std::max(keepUntil, e.begin + e.dur);
                    }
                }
                for (auto& e : mine)
                    if (e.begin + e.dur <= keepUntil) replayEvents.push_back(e);
                ++replayedSites;
            } catch (script::PyException& e) {
                cp.note = "a replayed call raised " + in.formatException(e);
            } catch (std::exception& e) {
                cp.note = std::string("a replayed call failed: ") + e.what();
            }
            s.events.setLevel(events::Level::Off);
        }
    }
    s.events.setLevel(runLevel);
    s.recordCalls = wasRecording;
    p.replayed = replayedSites > 0;
    if (opts.replay && replayedSites < sites.size())
        p.note = "time budget of " + fmt("%.3g", opts.budgetSeconds) + " s reached: " + std::to_string(replayedSites) + " of " +
                 std::to_string(sites.size()) + " calls replayed";
    convert(replayEvents, "replay: ");

    for (auto& site : sites) {
        CallProfile& cp = site.prof;
        const Reuse& r = reuse[inspect::callIdentity(s.recorded[site.first], "").first];
        if (!cp.compileIds.empty() && r.calls > 1 && r.cached == 0) {
            cp.breakEvenCalls = -1; // never: no call reused an entry
            if (cp.note.empty())
                cp.note = "none of the function's " + std::to_string(r.calls) + " calls in the run reused a cached entry: each compiled anew";
        } else if (!cp.compileIds.empty() && cp.eagerMs > cp.cachedMs && cp.cachedRuns > 0 && cp.eagerRuns > 0) {
            cp.breakEvenCalls = (long long)std::ceil(cp.compileMs / (cp.eagerMs - cp.cachedMs));
            // one run's figure alone hid how much it moves (3956 in one run, 2 in another)
            double best = cp.eagerQ3 - cp.cachedQ1, worst = cp.eagerQ1 - cp.cachedQ3;
            cp.breakEvenLow = best > 0 ? (long long)std::ceil(cp.compileMs / best) : -1;
            cp.breakEvenHigh = worst > 0 ? (long long)std::ceil(cp.compileMs / worst) : -1;
            if (cp.breakEvenLow > cp.breakEvenCalls) cp.breakEvenLow = cp.breakEvenCalls;
            if (cp.breakEvenHigh >= 0 && cp.breakEvenHigh < cp.breakEvenCalls) cp.breakEvenHigh = cp.breakEvenCalls;
        }
        if (cp.compileIds.empty() && cp.note.empty()) cp.note = "its first call compiled nothing (the code was compiled by an earlier call)";
        if (cp.profiledRuns > 0 && cp.kernels.empty() && cp.note.empty()) {
            // an empty kernel table says why (issue 27, bug 8)
            cp.note = "no kernel ran in the profiled runs: the graph ran eagerly";
            if (s.recorded[site.first].gradMode)
                cp.note += " (with grad on, a graph with an op that changes state or draws random numbers, such as batch_norm in "
                           "training or dropout, cannot be re-run for its backward, so it runs eagerly until backward graphs are compiled)";
        }
        p.calls.push_back(cp);
    }
    return p;
}

// ------------------------------------------------------------------ text
std::string profileText(const Profile& p) {
    std::ostringstream o;
    char b[512];
    o << "fuselab profile: " << p.file << "\n";
    o << "machine: " << p.machine << ", " << p.cores << " cores; threads " << p.threads << "; LibTorch " << p.libtorch << "; kernels compiled by "
      << p.compiler << "; fuselab " << p.fuselab << "\n";
    std::snprintf(b, sizeof b, "script: parse %.2f ms, interpreter start-up %.2f ms, run %.2f ms\n", p.parseMs, p.startupMs, p.runMs);
    o << b;
    o << "\ncompile ids (" << p.compiles.size() << "):\n";
    for (auto& c : p.compiles) {
        std::snprintf(b, sizeof b, "  [%s] %s (%s:%d)  %s, cache %s%s%s, %d kernels\n", c.id.c_str(), c.function.c_str(), c.file.c_str(), c.line,
                      c.status.c_str(), c.cache.c_str(), c.jit.empty() ? "" : ", jit ", c.jit.c_str(), c.kernels);
        o << b;
        std::string line = "      ";
        for (auto& ph : c.phases) line += ph.name + " " + fmt("%.3f", ph.ms) + "  ";
        o << line << "\n";
        if (!c.trainingPhases.empty()) {
            line = "      compiled training: ";
            for (auto& ph : c.trainingPhases) line += ph.name + " " + fmt("%.3f", ph.ms) + "  ";
            o << line << "\n";
        }
        double pct = c.firstCallMs > 0 ? 100 * c.phaseSumMs / c.firstCallMs : 0;
        std::snprintf(b, sizeof b, "      compile %.3f ms; phases sum %.3f ms of %.3f ms measured around the compile id (%.1f%%)\n", c.compileMs, c.phaseSumMs,
                      c.firstCallMs, pct);
        o << b;
    }
    if (!p.instants.empty()) {
        o << "\ngraph breaks and recompiles:\n";
        for (auto& i : p.instants) {
            std::snprintf(b, sizeof b, "  [%s] %s at %s:%d: ", i.id.c_str(), i.kind.c_str(), i.file.c_str(), i.line);
            o << b << i.reason << "\n";
        }
    }
    o << "\ncalls (" << p.calls.size() << "):\n";
    for (auto& c : p.calls) {
        o << "  " << c.function << " (" << c.file << ":" << c.line << ")  inputs " << c.inputs << "\n";
        std::string ids;
        for (auto& id : c.compileIds) ids += (ids.empty() ? "" : ", ") + id;
        std::string verdict = c.compileIds.empty() ? "no compile of its own" : "pays off after " + c.breakEven();
        std::snprintf(b, sizeof b, "      first call %.3f ms (compile %.3f ms%s%s) vs cached %.4f ms, eager %.4f ms: %s\n", c.firstCallMs,
                      c.compileMs, ids.empty() ? "" : ": ", ids.c_str(), c.cachedMs, c.eagerMs, verdict.c_str());
        o << b;
        if (c.training && c.backwardRuns > 0) {
            std::snprintf(b, sizeof b, "      backward (%s): cached %.4f ms after the call, eager %.4f ms; runs %d cached, %d eager\n", c.backward.c_str(),
                          c.backwardMs, c.eagerBackwardMs, c.backwardRuns, c.eagerBackwardRuns);
            o << b;
        }
        if (c.profiledRuns > 0) {
            std::snprintf(b, sizeof b,
                          "      cached call: guards %.2f us, dispatch %.4f ms, outside graphs %.4f ms; with kernel timers %.4f ms (%+.1f%%); runs %d cached, %d eager, %d profiled\n",
                          c.guardNs * 1e-3, c.dispatchMs, c.otherMs, c.profiledMs, c.cachedMs > 0 ? 100 * (c.profiledMs / c.cachedMs - 1) : 0.0, c.cachedRuns,
                          c.eagerRuns, c.profiledRuns);
            o << b;
        }
        if (!c.kernels.empty()) {
            std::snprintf(b, sizeof b, "      %-44s %-8s %5s %10s %10s %6s  %s\n", "kernel", "kind", "count", "total ms", "mean ms", "share", "lines");
            o << b;
            for (auto& k : c.kernels) {
                std::string lines;
                for (int l : k.lines) lines += (lines.empty() ? "" : ",") + std::to_string(l);
                std::string name = (k.graph.empty() ? "" : "[" + k.graph + "] ") + k.name;
                std::snprintf(b, sizeof b, "      %-44s %-8s %5d %10.4f %10.4f %5.1f%%  %s\n", name.c_str(), k.kind.c_str(), k.count, k.totalMs, k.meanMs,
                              100 * k.share, lines.c_str());
                o << b;
            }
        }
        if (!c.note.empty()) o << "      note: " << c.note << "\n";
    }
    if (!p.note.empty()) o << "\nnote: " << p.note << "\n";
    if (p.droppedEvents) o << "note: " << p.droppedEvents << " events were dropped (the event log is full)\n";
    return o.str();
}

// ------------------------------------------------------------------ JSON
namespace {

std::string jstr(const std::string& s) {
    std::string r = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') r += '\\', r += char(c);
        else if (c == '\n') r += "\\n";
        else if (c == '\t') r += "\\t";
        else if (c < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); r += b; }
        else r += char(c);
    }
    return r + "\"";
}

std::string jnum(double v) {
    if (!std::isfinite(v)) return "null";
    char b[64];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}

// A number for an arg value that looks like one, else a string: numbers stay numbers in Perfetto.
std::string jarg(const std::string& v) {
    if (v.empty()) return jstr(v);
    char* end = nullptr;
    double d = std::strtod(v.c_str(), &end);
    if (end && *end == 0 && std::isfinite(d) && v.find_first_not_of("0123456789.-e+") == std::string::npos) return jnum(d);
    return jstr(v);
}

std::string jargs(const std::vector<std::pair<std::string, std::string>>& args) {
    std::string r = "{";
    for (size_t i = 0; i < args.size(); ++i) r += (i ? ", " : "") + jstr(args[i].first) + ": " + jarg(args[i].second);
    return r + "}";
}

} // namespace

std::string traceJson(const Profile& p) {
    // pid 1: the run; pid 2: the profiler's replays. Threads: one per track, in a fixed order.
    struct Track { int pid, tid, sort; std::string name; };
    std::map<std::string, Track> tracks;
    int nextCompile = 100, nextOther = 10;
    auto trackOf = [&](const std::string& name) -> Track& {
        auto it = tracks.find(name);
        if (it != tracks.end()) return it->second;
        bool replay = name.rfind("replay: ", 0) == 0;
        std::string base = replay ? name.substr(8) : name;
        Track t{replay ? 2 : 1, 0, 0, name};
        if (base == "script") t.tid = 1;
        else if (base == "runtime") t.tid = 2;
        else if (base == "kernels") t.tid = 3;
        else if (base == "eager") t.tid = 4;
        else if (base == "counters") t.tid = 5;
        else if (base.rfind("compile ", 0) == 0) t.tid = nextCompile++;
        else t.tid = nextOther++;
        t.sort = t.tid;
        return tracks.emplace(name, t).first->second;
    };
    // compile tracks numbered in compile-id order
    for (auto& c : p.compiles) trackOf("compile " + c.id);
    std::vector<std::string> ev;
    auto us = [](double ms) { // microseconds with ns resolution: %g would round long traces to 10 us
        char b[64];
        std::snprintf(b, sizeof b, "%.3f", std::max(0.0, ms * 1000.0));
        return std::string(b);
    };
    for (auto& s : p.spans) {
        Track& t = trackOf(s.track);
        ev.push_back("{\"ph\": \"X\", \"name\": " + jstr(s.name) + ", \"cat\": " + jstr(s.category.empty() ? "span" : s.category) + ", \"pid\": " +
                     std::to_string(t.pid) + ", \"tid\": " + std::to_string(t.tid) + ", \"ts\": " + us(s.startMs) + ", \"dur\": " + us(s.ms) +
                     ", \"args\": " + jargs(s.args) + "}");
    }
    for (auto& i : p.instants) {
        Track& t = trackOf("compile " + i.id);
        auto args = i.args;
        bool hasReason = false;
        for (auto& a : args) hasReason |= a.first == "reason";
        if (!hasReason) args.emplace_back("reason", i.reason);
        ev.push_back("{\"ph\": \"i\", \"s\": \"t\", \"name\": " + jstr(i.kind) + ", \"cat\": " + jstr(i.isBreak ? "break" : "recompile") +
                     ", \"pid\": " + std::to_string(t.pid) + ", \"tid\": " + std::to_string(t.tid) + ", \"ts\": " + us(i.atMs) + ", \"args\": " + jargs(args) + "}");
    }
    for (auto& c : p.counters) {
        Track& t = trackOf(c.track);
        ev.push_back("{\"ph\": \"C\", \"name\": " + jstr(c.name) + ", \"pid\": " + std::to_string(t.pid) + ", \"tid\": " + std::to_string(t.tid) +
                     ", \"ts\": " + us(c.atMs) + ", \"args\": {\"value\": " + jnum(c.value) + "}}");
    }
    std::vector<std::string> meta;
    std::set<int> pids;
    for (auto& [name, t] : tracks) pids.insert(t.pid);
    for (int pid : pids) {
        std::string pname = pid == 1 ? "fuselab: " + p.file : "fuselab: replays of the recorded calls (profiler)";
        meta.push_back("{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": " + std::to_string(pid) + ", \"tid\": 0, \"ts\": 0, \"args\": {\"name\": " + jstr(pname) + "}}");
        meta.push_back("{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": " + std::to_string(pid) + ", \"tid\": 0, \"ts\": 0, \"args\": {\"sort_index\": " +
                       std::to_string(pid) + "}}");
    }
    for (auto& [name, t] : tracks) {
        meta.push_back("{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": " + std::to_string(t.pid) + ", \"tid\": " + std::to_string(t.tid) +
                       ", \"ts\": 0, \"args\": {\"name\": " + jstr(t.pid == 2 ? name.substr(8) : name) + "}}");
        meta.push_back("{\"ph\": \"M\", \"name\": \"thread_sort_index\", \"pid\": " + std::to_string(t.pid) + ", \"tid\": " + std::to_string(t.tid) +
                       ", \"ts\": 0, \"args\": {\"sort_index\": " + std::to_string(t.sort) + "}}");
    }
    std::ostringstream o;
    o << "{\"traceEvents\": [\n";
    bool first = true;
    for (auto* list : {&meta, &ev})
        for (auto& e : *list) {
            o << (first ? "  " : ",\n  ") << e;
            first = false;
        }
    o << "\n],\n\"displayTimeUnit\": \"ms\",\n\"otherData\": {\"file\": " << jstr(p.file) << ", \"machine\": " << jstr(p.machine) << ", \"cores\": " << p.cores
      << ", \"threads\": " << p.threads << ", \"libtorch\": " << jstr(p.libtorch) << ", \"compiler\": " << jstr(p.compiler) << ", \"fuselab\": "
      << jstr(p.fuselab) << "}}\n";
    return o.str();
}

std::string profileJson(const Profile& p) {
    std::ostringstream o;
    o << "{\"file\": " << jstr(p.file) << ",\n \"machine\": {\"cpu\": " << jstr(p.machine) << ", \"cores\": " << p.cores << ", \"threads\": " << p.threads
      << ", \"libtorch\": " << jstr(p.libtorch) << ", \"compiler\": " << jstr(p.compiler) << ", \"fuselab\": " << jstr(p.fuselab) << "},\n";
    o << " \"script\": {\"parse_ms\": " << jnum(p.parseMs) << ", \"startup_ms\": " << jnum(p.startupMs) << ", \"run_ms\": " << jnum(p.runMs) << "},\n";
    o << " \"compiles\": [";
    for (size_t i = 0; i < p.compiles.size(); ++i) {
        auto& c = p.compiles[i];
        o << (i ? ",\n  " : "\n  ") << "{\"id\": " << jstr(c.id) << ", \"function\": " << jstr(c.function) << ", \"file\": " << jstr(c.file)
          << ", \"line\": " << c.line << ", \"status\": " << jstr(c.status) << ", \"cache\": " << jstr(c.cache) << ", \"jit\": " << jstr(c.jit)
          << ", \"kernels\": " << c.kernels << ", \"first_call_ms\": " << jnum(c.firstCallMs) << ", \"compile_ms\": " << jnum(c.compileMs)
          << ", \"phase_sum_ms\": " << jnum(c.phaseSumMs) << ", \"phases\": [";
        for (size_t j = 0; j < c.phases.size(); ++j)
            o << (j ? ", " : "") << "{\"name\": " << jstr(c.phases[j].name) << ", \"start_ms\": " << jnum(c.phases[j].startMs) << ", \"ms\": " << jnum(c.phases[j].ms) << "}";
        o << "], \"training_phases\": [";
        for (size_t j = 0; j < c.trainingPhases.size(); ++j)
            o << (j ? ", " : "") << "{\"name\": " << jstr(c.trainingPhases[j].name) << ", \"start_ms\": " << jnum(c.trainingPhases[j].startMs)
              << ", \"ms\": " << jnum(c.trainingPhases[j].ms) << "}";
        o << "], \"backward_compile_ms\": " << jnum(c.backwardCompileMs) << "}";
    }
    o << "\n ],\n \"calls\": [";
    for (size_t i = 0; i < p.calls.size(); ++i) {
        auto& c = p.calls[i];
        o << (i ? ",\n  " : "\n  ") << "{\"function\": " << jstr(c.function) << ", \"file\": " << jstr(c.file) << ", \"line\": " << c.line
          << ", \"inputs\": " << jstr(c.inputs) << ", \"compile_ids\": [";
        for (size_t j = 0; j < c.compileIds.size(); ++j) o << (j ? ", " : "") << jstr(c.compileIds[j]);
        o << "], \"first_call_ms\": " << jnum(c.firstCallMs) << ", \"compile_ms\": " << jnum(c.compileMs) << ", \"cached_ms\": " << jnum(c.cachedMs)
          << ", \"profiled_ms\": " << jnum(c.profiledMs) << ", \"eager_ms\": " << jnum(c.eagerMs) << ", \"cached_runs\": " << c.cachedRuns
          << ", \"profiled_runs\": " << c.profiledRuns << ", \"eager_runs\": " << c.eagerRuns << ", \"guard_ns\": " << jnum(c.guardNs)
          << ", \"dispatch_ms\": " << jnum(c.dispatchMs) << ", \"other_ms\": " << jnum(c.otherMs) << ", \"break_even_calls\": "
          << (c.compileIds.empty() ? std::string("null") : c.breakEvenCalls < 0 ? std::string("\"never\"") : std::to_string(c.breakEvenCalls))
          << ", \"break_even_range\": "
          << (c.compileIds.empty() || c.breakEvenCalls < 0 ? std::string("null")
                                                            : "[" + std::to_string(c.breakEvenLow) + ", " +
                                                                  (c.breakEvenHigh < 0 ? std::string("null") : std::to_string(c.breakEvenHigh)) + "]")
          << ", \"backward\": "
          << (c.training ? "{\"which\": " + jstr(c.backward) + ", \"cached_ms\": " + jnum(c.backwardMs) + ", \"eager_ms\": " + jnum(c.eagerBackwardMs) +
                               ", \"cached_runs\": " + std::to_string(c.backwardRuns) + ", \"eager_runs\": " + std::to_string(c.eagerBackwardRuns) + "}"
                         : std::string("null"))
          << ", \"note\": " << jstr(c.note) << ", \"kernels\": [";
        for (size_t j = 0; j < c.kernels.size(); ++j) {
            auto& k = c.kernels[j];
            o << (j ? ", " : "") << "{\"name\": " << jstr(k.name) << ", \"kind\": " << jstr(k.kind) << ", \"graph\": " << jstr(k.graph) << ", \"count\": " << k.count
              << ", \"total_ms\": " << jnum(k.totalMs) << ", \"mean_ms\": " << jnum(k.meanMs) << ", \"share\": " << jnum(k.share) << ", \"lines\": [";
            for (size_t l = 0; l < k.lines.size(); ++l) o << (l ? ", " : "") << k.lines[l];
            o << "]}";
        }
        o << "]}";
    }
    o << "\n ],\n \"events\": [";
    for (size_t i = 0; i < p.instants.size(); ++i) {
        auto& x = p.instants[i];
        o << (i ? ",\n  " : "\n  ") << "{\"kind\": " << jstr(x.kind) << ", \"id\": " << jstr(x.id) << ", \"at_ms\": " << jnum(x.atMs) << ", \"file\": " << jstr(x.file)
          << ", \"line\": " << x.line << ", \"reason\": " << jstr(x.reason) << "}";
    }
    o << "\n ],\n \"replayed\": " << (p.replayed ? "true" : "false") << ", \"note\": " << jstr(p.note) << "}\n";
    return o.str();
}

} // namespace fl::profiler
