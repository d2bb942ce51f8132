// The bench's alternating timing (inspect::timeAlternating), with calls that take a known time
// and log what ran: the number of untimed runs before each block (each kind's settle: for its
// time, at most its maxRuns, at least one), that every timed run follows a run of its own kind,
// the order of the blocks per round, the sample counts, and where the copy probes go; the bench's
// settles; and spreadNote, the report's note on timed runs that spread. The time is a clock the
// test drives (each call moves it on by the call's time), not the machine's: what is counted is
// exact, on a quiet machine or a loaded one, and the test sleeps not at all.
#include <cstdio>
#include <string>
#include <vector>

#include "core/inspect/bench.h"

using namespace fl::inspect;

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

// The clock timeAlternating reads: milliseconds that only the calls move on.
static double fakeMs = 0;
static double clockMs() { return fakeMs; }

static const Settle kOneRun{0, 1};

// Runs timeAlternating with an `aMs` call as a and a `bMs` call as b; returns the samples and the log.
static AlternatingTimes run(const BenchOptions& o, Settle sa, Settle sb, double aMs, double bMs, Log& log) {
    return timeAlternating(
        o, sa, sb,
        [&] {
            log.calls += 'a';
            fakeMs += aMs;
        },
        [&] {
            log.calls += 'b';
            fakeMs += bMs;
        },
        {}, clockMs);
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

static void expectBlocks(const char* name, const BenchOptions& o, Settle sa, Settle sb, double aMs, double bMs, size_t aUntimed,
                         size_t bUntimed) {
    Log log;
    AlternatingTimes t = run(o, sa, sb, aMs, bMs, log);
    const size_t timed = size_t(AlternatingTimes::kTimed);
    std::vector<char> bl;
    check(blocks(log.calls, aUntimed + timed, bUntimed + timed, bl),
          std::string(name) + ": every block of a is " + std::to_string(aUntimed + timed) + " runs (" + std::to_string(aUntimed) +
              " untimed), every block of b " + std::to_string(bUntimed + timed) + " (log " + log.calls + ")");
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
    for (double m : t.a) measured = measured && m == aMs;
    for (double m : t.b) measured = measured && m == bMs;
    check(measured, std::string(name) + ": each sample is the call's time");
}

int main() {
    BenchOptions defaults;
    check(defaults.minRuns == 12, "the bench's default: 12 samples of each kind");
    check(defaults.cached.ms == 20 && defaults.cached.maxRuns >= 1000 && defaults.eager.ms == 20 && defaults.eager.maxRuns >= 1000,
          "the bench's settles for a call of kernels only: 20 ms of untimed runs of each kind, however many");
    check(defaults.cachedBesideLibrary.ms == 8 && defaults.cachedBesideLibrary.maxRuns == 4 && defaults.eagerBesideLibrary.maxRuns == 1,
          "the bench's settles for a call with library calls: 8 ms of the cached call (at most 4 runs), one eager run");
    BenchOptions o;
    o.minSeconds = 0; // stop at minRuns
    o.minRuns = 8;

    struct Case {
        const char* name;
        Settle a, b;
        double aMs, bMs;
        size_t aUntimed, bUntimed; // expected untimed runs per block
    };
    const Case cases[] = {
        // the cap of 4 untimed runs ends the settle
        {"1 ms call, 1 s settle, at most 4", {1000, 4}, kOneRun, 1, 1, 4, 1},
        // the second untimed run ends it (the first ends at 20 ms, before the settle's 30)
        {"20 ms call, 30 ms settle", {30, 4}, kOneRun, 20, 1, 2, 1},
        // one untimed run is the settle
        {"9 ms call, 8 ms settle", {8, 4}, kOneRun, 9, 1, 1, 1},
        // no settle: one untimed run
        {"no settle", {0, 4}, kOneRun, 1, 1, 1, 1},
        // a cap of 0 still runs one untimed call before timing
        {"cap 0", {8, 0}, kOneRun, 1, 1, 1, 1},
        // b settles by its own rule, as a does
        {"b: 20 ms call, 30 ms settle", kOneRun, {30, BenchOptions::kUnbounded}, 1, 20, 1, 2},
        {"b: 1 ms call, 1 s settle, at most 3", kOneRun, {1000, 3}, 1, 1, 1, 3},
        // both kinds with the bench's unbounded settle of kernels-only calls, scaled down
        {"both: 20 ms calls, 30 ms settles", {30, BenchOptions::kUnbounded}, {30, BenchOptions::kUnbounded}, 20, 20, 2, 2},
    };
    for (const Case& c : cases) expectBlocks(c.name, o, c.a, c.b, c.aMs, c.bMs, c.aUntimed, c.bUntimed);

    // maxRuns bounds the samples even when minSeconds asks for more
    BenchOptions capped = o;
    capped.minSeconds = 10;
    capped.maxRuns = 4;
    Log log;
    AlternatingTimes t = run(capped, kOneRun, kOneRun, 1, 1, log);
    check(t.a.size() == 4 && t.b.size() == 4, "maxRuns stops a long minSeconds (" + std::to_string(t.a.size()) + " samples)");

    // the copy probes: at the start of even rounds only, between two blocks of a (or first), at
    // most one per probeEveryMs, their samples kept unless not positive
    auto probed = [&](const BenchOptions& po, std::string& calls, std::vector<double>& at, double sample) {
        const double t0 = fakeMs;
        return timeAlternating(
            po, kOneRun, kOneRun, [&] { calls += 'a', fakeMs += 1; }, [&] { calls += 'b', fakeMs += 1; },
            [&] {
                calls += 'p';
                at.push_back(fakeMs - t0);
                return sample;
            },
            clockMs);
    };
    {
        BenchOptions po = o;
        po.probeEveryMs = 0;
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
        po.probeEveryMs = 25; // a round of 1 ms calls takes 6 ms: probes in rounds 0, 6, 12, ...
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
