#!/usr/bin/env python3
"""Runs the anchor suite (resources/models/bench/) through `fuselab bench` and prints its table.

Usage: python3 tools/anchors.py [--fuselab build/app/fuselab] [--sets 3] [--runs 5] [--threads 2]
                                [--only NAME,...] [--raw FILE]
       python3 tools/anchors.py --tables FILE [FILE ...]   (the tables of runs saved with --raw)

A set runs every script --runs times in turn (script after script, then again); each run is a
fresh `fuselab bench --json` process. The table gives, per script, the median over all runs with
the lowest and highest in brackets: cached and eager milliseconds, speedup, max |diff|, achieved
GB/s, and % of copy (the call's GB/s over the copy timed between its own runs), then how many runs
reached 70% of copy. A second table gives each set's medians of % of copy. --raw appends every
run's JSON, one per line, to FILE; --tables prints the tables of such files (their sets numbered
in order) without running anything. This measures; it asserts nothing.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANCHORS = ["seed_mlp_b32", "seed_mlp_b8192", "pointwise_chain", "layernorm_gelu_residual", "softmax_rows",
           "transformer_block", "rmsnorm", "gated_activation", "masked_softmax"]
MM_BOUND = {"seed_mlp_b32", "seed_mlp_b8192", "transformer_block"}  # GB/s says little there


def bench(fuselab, script, threads):
    p = subprocess.run([fuselab, "bench", "--json", "--threads", str(threads), script], cwd=REPO,
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (script, p.returncode, p.stderr[-400:]))
    return json.loads(p.stdout)


def pct(call):
    return 100 * call["achieved_gbps"] / call["copy_gbps"] if call.get("copy_gbps") else float("nan")


def spread(values, fmt):
    med = statistics.median(values)
    return "%s (%s–%s)" % (fmt % med, fmt % min(values), fmt % max(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fuselab", default=os.path.join(REPO, "build", "app", "fuselab"))
    ap.add_argument("--sets", type=int, default=3)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--raw", default="")
    ap.add_argument("--tables", nargs="+", default=[])
    a = ap.parse_args()
    names = [n for n in a.only.split(",") if n] or ANCHORS
    runs = {n: [] for n in names}  # name -> [(set, report)]
    started = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    machine = None
    if a.tables:
        sets = 0
        for path in a.tables:
            seen = set()
            with open(path) as fh:
                for line in fh:
                    d = json.loads(line)
                    if d["anchor"] in runs:
                        runs[d["anchor"]].append((sets + d["set"], d))
                        seen.add(d["set"])
                        machine = machine or d["machine"]
            sets += len(seen)
        a.sets, a.runs = sets, max(len(r) for r in runs.values()) // max(1, sets)
        started = "saved runs (%s)" % ", ".join(a.tables)
    for s in range(0 if a.tables else a.sets):
        for _ in range(a.runs):
            for n in names:
                d = bench(a.fuselab, os.path.join("resources", "models", "bench", n + ".py"), a.threads)
                machine = machine or d["machine"]
                runs[n].append((s, d))
                if a.raw:
                    with open(a.raw, "a") as fh:
                        fh.write(json.dumps(dict(d, anchor=n, set=s)) + "\n")
                print("set %d %-24s cached %8.3f ms  %5.0f%% of copy" % (s + 1, n, d["calls"][0]["cached_ms"], pct(d["calls"][0])),
                      file=sys.stderr, flush=True)
    when = started if a.tables else "%s UTC to %s UTC" % (started, time.strftime("%H:%M", time.gmtime()))
    print("%s; %s, %d cores; LibTorch %s, BLAS %s; kernels by %s; --threads %d; %d sets of %d runs"
          % (when, machine["cpu"], machine["cores"], machine["libtorch"], machine.get("blas", "?"), machine["compiler"],
             a.threads, a.sets, a.runs))
    copies = [c["copy_gbps"] for n in names for _, d in runs[n] for c in d["calls"][:1]]
    print("copy the calls divide by: %s GB/s\n" % spread(copies, "%.1f"))
    print("| workload | cached ms | eager ms | speedup | max abs diff | GB/s | % of copy | runs ≥ 70% |")
    print("|---|---|---|---|---|---|---|---|")
    for n in names:
        calls = [d["calls"][0] for _, d in runs[n]]
        mm = n in MM_BOUND
        print("| %s | %s | %s | %s | %.1e | %s | %s | %s |" % (
            n, spread([c["cached_ms"] for c in calls], "%.3g"), spread([c["eager_ms"] for c in calls], "%.3g"),
            spread([c["speedup"] for c in calls], "%.2fx"), max(c["max_abs_diff"] for c in calls),
            "—" if mm else spread([c["achieved_gbps"] for c in calls], "%.1f"),
            "(mm-bound)" if mm else spread([pct(c) for c in calls], "%.0f%%"),
            "—" if mm else "%d of %d" % (sum(pct(c) >= 70 for c in calls), len(calls))))
    print("\n| set | copy GB/s | " + " | ".join(n for n in names if n not in MM_BOUND) + " | " +
          " | ".join(n + " speedup" for n in names if n in MM_BOUND) + " |")
    print("|---" * (2 + len(names)) + "|")
    for s in range(a.sets):
        row = ["%d" % (s + 1), spread([d["calls"][0]["copy_gbps"] for n in names for t, d in runs[n] if t == s], "%.1f")]
        row += ["%.0f%%" % statistics.median(pct(d["calls"][0]) for t, d in runs[n] if t == s) for n in names if n not in MM_BOUND]
        row += [spread([d["calls"][0]["speedup"] for t, d in runs[n] if t == s], "%.2fx") for n in names if n in MM_BOUND]
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
