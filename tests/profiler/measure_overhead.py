#!/usr/bin/env python3
"""Overhead of the profiler on cached calls, over the anchor suite (resources/models/bench/*.py).

off: `fuselab bench --json` cached medians of a build without the event log (--before) against this
     build (--after), alternating the two binaries round by round so machine noise hits both; the
     median over rounds per workload.
on:  `fuselab profile --json` of this build: the cached median with profiling off against the
     median with the event log and kernel timers on, measured in the same process.
Not a CTest (it takes minutes and wants a quiet machine). Stdlib only.

usage: measure_overhead.py --before OLD/fuselab --after NEW/fuselab [--threads 2] [--rounds 3]
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys


def run_json(cmd, env):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr[-500:]))
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--threads", default="2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("models", nargs="*")
    a = ap.parse_args()
    models = a.models or sorted(glob.glob("resources/models/bench/*.py"))
    env = dict(os.environ)
    off = {}   # (model, call) -> {"before": [...], "after": [...]}
    on = {}    # (model, call) -> [(cached, profiled)]
    machine = None
    for r in range(a.rounds):
        for m in models:
            order = [("before", a.before), ("after", a.after)] if r % 2 == 0 else [("after", a.after), ("before", a.before)]
            for tag, exe in order:
                j = run_json([exe, "bench", "--json", "--threads", a.threads, m], env)
                machine = j["machine"]
                for c in j["calls"]:
                    off.setdefault((m, "%s:%d" % (c["function"], c["line"])), {"before": [], "after": []})[tag].append(c["cached_ms"])
            j = run_json([a.after, "profile", "--json", "--threads", a.threads, "--budget", "30", m, "-o", os.devnull], env)
            for c in j["calls"]:
                on.setdefault((m, "%s:%d" % (c["function"], c["line"])), []).append((c["cached_ms"], c["profiled_ms"]))
        print("round %d done" % (r + 1), file=sys.stderr)
    print("machine: %s; threads %s; %d rounds" % (json.dumps(machine), a.threads, a.rounds))
    print("off: after/before, the median of the per-round ratios (paired) and the ratio of the best rounds;")
    print("on: profiled/cached within one process (calls alternated), the median over rounds.")
    print("%-40s %10s %10s %8s %8s   %10s %10s %8s   %s" % ("workload (call)", "before ms", "after ms", "off", "off best", "cached ms",
                                                         "prof. ms", "on", "off per round"))
    for key in sorted(off):
        b, f = off[key]["before"], off[key]["after"]
        mb, mf = statistics.median(b), statistics.median(f)
        ratios = [y / x for x, y in zip(b, f)]
        pairs = on.get(key, [])
        mc = statistics.median([x for x, _ in pairs]) if pairs else 0
        mp = statistics.median([y for _, y in pairs]) if pairs else 0
        onr = statistics.median([y / x for x, y in pairs]) if pairs else 1
        spread = ", ".join("%+.1f%%" % (100 * (r - 1)) for r in ratios)
        print("%-40s %10.4f %10.4f %+7.1f%% %+7.1f%%   %10.4f %10.4f %+7.1f%%   %s" % (
            os.path.basename(key[0])[:-3] + " (" + key[1] + ")", mb, mf, 100 * (statistics.median(ratios) - 1), 100 * (min(f) / min(b) - 1),
            mc, mp, 100 * (onr - 1), spread))
    return 0


if __name__ == "__main__":
    sys.exit(main())
