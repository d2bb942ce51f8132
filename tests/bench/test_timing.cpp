// The bench's alternating timing (runtime::timeAlternating), with calls that sleep a known time
// and log what ran: the number of untimed runs before each block (the cached call's settle, at
// most maxSettleRuns; one for eager), that every timed run follows a run of its own kind, the
// order of the blocks per round, the sample counts, and where the copy probes go; and spreadNote,
// the report's note on timed runs that spread. Sleeps only ever overshoot, and the settles are
// chosen far from the sums of sleeps, so the counts do not depend on the machine.
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "core/runtime/bench.h"

using namespace fl::runtime;

static int passed = 0, failed = 0;

static void check(bool ok, const std::string& what) {
    if (ok) ++passed;
    else ++failed;
    std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
    std::fflush(stdout);
}

struct Log {
    std::string calls; // one letter per call, in order: 'a' or 'b'
};

// Runs timeAlternating with an `aMs` call as a and a 1 ms call as b; returns the samples and the log.
static AlternatingTimes run(const BenchOptions& o, double aMs, Log& log) {
    auto sleepMs = [](double m) { std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(m)); };
    return timeAlternating(
        o,
        [&] {
            log.calls += 'a';
            sleepMs(aMs);
        },
        [&] {
            log.calls += 'b';
            sleepMs(1);
        });
}

// The log cut into blocks of aBlock runs of a and bBlock runs of b; false when it does not cut so
// (a block of another length, or of mixed calls).
static bool blocks(const std::string& calls, size_t aBlock, size_t bBlock, std::vector<char>& kinds) {
    for (size_t i = 0; i < calls.size();) {
        char k = calls[i];
        size_t n = k == 'a' ? aBlock : bBlock;
        if (i + n > calls.size() || calls.find_first_not_of(k, i) < i + n) return false;
        kinds.push_back(k);
        i += n;
    }
    return !kinds.empty();
}

static void expectBlocks(const char* name, const BenchOptions& o, double aMs, size_t aBlock) {
    Log log;
    AlternatingTimes t = run(o, aMs, log);
    const size_t timed = size_t(AlternatingTimes::kTimed);
    std::vector<char> bl;
    check(blocks(log.calls, aBlock, 1 + timed, bl), std::string(name) + ": every block of a is " + std::to_string(aBlock) + " runs (" +
                                                      std::to_string(aBlock - timed) + " untimed), every block of b " +
                                                      std::to_string(1 + timed) + " (log " + log.calls + ")");
    // rounds: a then b in even rounds, b then a in odd ones
    bool order = !bl.empty() && bl.size() % 2 == 0;
    for (size_t i = 0; order && i < bl.size(); ++i) order = bl[i] == ((i / 2) % 2 == 0 ? (i % 2 ? 'b' : 'a') : (i % 2 ? 'a' : 'b'));
    check(order, std::string(name) + ": a then b, then b then a, round by round");
    size_t rounds = bl.size() / 2;
    check(t.a.size() == rounds * timed && t.b.size() == rounds * timed,
          std::string(name) + ": " + std::to_string(timed) + " samples of each per round (" + std::to_string(t.a.size()) + ", " +
              std::to_string(t.b.size()) + " in " + std::to_string(rounds) + " rounds)");
    check(int(t.a.size()) >= o.minRuns && int(t.a.size()) < o.minRuns + int(timed),
          std::string(name) + ": stops once both have minRuns samples (" + std::to_string(t.a.size()) + ")");
    bool measured = true;
    for (double m : t.a) measured = measured && m >= aMs;
    for (double m : t.b) measured = measured && m >= 1;
    check(measured, std::string(name) + ": each sample is at least the call's sleep");
}

int main() {
    BenchOptions defaults;
    check(defaults.settleMs == 8 && defaults.maxSettleRuns == 4 && defaults.minRuns == 12,
          "the bench's defaults: an 8 ms settle, at most 4 untimed cached runs, 12 samples");
    BenchOptions o;
    o.minSeconds = 0; // stop at minRuns
    o.minRuns = 8;

    struct Case {
        const char* name;
        double settleMs;
        int maxSettleRuns;
        double callMs;
        size_t untimed; // expected untimed runs of a per block
    };
    const Case cases[] = {
        // the cap of 4 untimed runs ends the settle
        {"1 ms call, 1 s settle", 1000, 4, 1, 4},
        // the second untimed run ends it (the first ends before 30 ms unless its sleep overshoots
        // by 10 ms)
        {"20 ms call, 30 ms settle", 30, 4, 20, 2},
        // one untimed run is the settle
        {"9 ms call, 8 ms settle", 8, 4, 9, 1},
        // no settle: one untimed run, as for eager
        {"no settle", 0, 4, 1, 1},
        // a cap of 0 still runs one untimed call before timing
        {"cap 0", 8, 0, 1, 1},
    };
    for (const Case& c : cases) {
        BenchOptions co = o;
        co.settleMs = c.settleMs;
        co.maxSettleRuns = c.maxSettleRuns;
        expectBlocks(c.name, co, c.callMs, c.untimed + size_t(AlternatingTimes::kTimed));
    }

    // maxRuns bounds the samples even when minSeconds asks for more
    BenchOptions capped = o;
    capped.minSeconds = 10;
    capped.maxRuns = 4;
    Log log;
    AlternatingTimes t = run(capped, 1, log);
    check(t.a.size() == 4 && t.b.size() == 4, "maxRuns stops a long minSeconds (" + std::to_string(t.a.size()) + " samples)");

    // the copy probes: at the start of even rounds only, between two blocks of a (or first), at
    // most one per probeEveryMs, their samples kept unless not positive
    auto probed = [&](const BenchOptions& po, std::string& calls, std::vector<double>& at, double sample) {
        auto t0 = std::chrono::steady_clock::now();
        auto sleepMs = [](double m) { std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(m)); };
        return timeAlternating(
            po, [&] { calls += 'a', sleepMs(1); }, [&] { calls += 'b', sleepMs(1); },
            [&] {
                calls += 'p';
                at.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
                return sample;
            });
    };
    {
        BenchOptions po = o;
        po.probeEveryMs = 0;
        po.settleMs = 0;
        std::string calls;
        std::vector<double> at;
        AlternatingTimes pt = probed(po, calls, at, 5.0);
        size_t rounds = pt.a.size() / AlternatingTimes::kTimed, evenRounds = (rounds + 1) / 2;
        bool placed = true;
        for (size_t i = 0; i < calls.size(); ++i)
            if (calls[i] == 'p') placed = placed && i + 1 < calls.size() && calls[i + 1] == 'a' && (i == 0 || calls[i - 1] == 'a');
        check(placed && calls[0] == 'p', "every probe comes before a block of a, after one of a or first (log " + calls + ")");
        check(at.size() == evenRounds && pt.probe.size() == evenRounds,
              "with no spacing, one probe per even round (" + std::to_string(at.size()) + " in " + std::to_string(rounds) + " rounds)");
        bool kept = !pt.probe.empty();
        for (double v : pt.probe) kept = kept && v == 5.0;
        check(kept, "the probes' own samples are kept");
    }
    {
        BenchOptions po = o;
        po.probeEveryMs = 1e9;
        std::string calls;
        std::vector<double> at;
        AlternatingTimes pt = probed(po, calls, at, 5.0);
        check(at.size() == 1 && calls[0] == 'p' && pt.probe.size() == 1, "a spacing longer than the timing: one probe, in the first round");
    }
    {
        BenchOptions po = o;
        po.minRuns = 40;
        po.settleMs = 0;
        po.probeEveryMs = 25; // a round of 1 ms calls takes about 6 ms
        std::string calls;
        std::vector<double> at;
        AlternatingTimes pt = probed(po, calls, at, 0.0);
        bool spaced = at.size() >= 2;
        for (size_t i = 1; i < at.size(); ++i) spaced = spaced && at[i] - at[i - 1] >= po.probeEveryMs;
        size_t evenRounds = (pt.a.size() / AlternatingTimes::kTimed + 1) / 2;
        check(spaced && at.size() < evenRounds, "probes at least probeEveryMs apart (" + std::to_string(at.size()) + " probes, " +
                                                    std::to_string(evenRounds) + " even rounds)");
        check(pt.probe.empty(), "samples that are not positive are not kept");
    }
    check(BenchOptions().probeEveryMs == 40, "the bench's default: a probe at most every 40 ms");

    // spreadNote: silent for steady runs, a note naming the kind and the range for stalled ones
    check(spreadNote("eager", {0.15, 0.16, 0.18, 0.21, 0.55}).empty(), "steady eager runs give no note");
    check(spreadNote("cached", {}).empty(), "no runs give no note");
    std::string stalled = spreadNote("eager", {0.16, 0.28, 7.9, 7.9, 8.0, 12.0});
    check(stalled.rfind("eager runs took 0.16-12 ms (median 7.9)", 0) == 0, "stalled eager runs: " + stalled);
    check(!spreadNote("cached", {1.0, 4.0, 4.0}).empty() && spreadNote("cached", {1.0, 3.9, 3.9}).empty(),
          "the note starts where the median reaches 4x the fastest run");

    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
