#!/usr/bin/env python3
"""`fuselab profile` on every example (resources/models/*.py, resources/models/bench/*.py).

For each: the command exits 0, writes a trace that validate_trace.py accepts (format, compile
tracks, reasons on breaks and recompiles), the phases of every compile id add up to within 5% of
the time measured around that compile id, and for a call whose first call compiled exactly one
graph and returned from it, the phases add up to within 5% of the whole first call measured by
the call's own span (the call also binds its arguments and looks up its frame). The cached calls
and their kernels are on the runtime tracks. tests/bench/calls.py's calls, which differ in inputs
and in grad mode, are four call sites. Runs with an empty compile cache, so every phase of
a cold compile is exercised. Stdlib only (Debian's python3).
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validate_trace  # noqa: E402

TOL = 0.05



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fuselab", required=True)
    ap.add_argument("--budget", default="1")
    ap.add_argument("models", nargs="*")
    a = ap.parse_args()
    models = a.models or sorted(glob.glob("resources/models/*.py")) + sorted(glob.glob("resources/models/bench/*.py"))
    failures = []
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, FUSELAB_CACHE_DIR=os.path.join(tmp, "cache"))
        # every example with an empty cache, then the first one again: its kernels now come from
        # the disk cache (the "load (disk cache)" phase instead of the JIT's)
        for n, m in enumerate(models + models[:1]):
            warm = n == len(models)
            out = os.path.join(tmp, os.path.basename(m) + (".warm" if warm else "") + ".trace.json")
            p = subprocess.run([a.fuselab, "profile", "--json", "--budget", a.budget, m, "-o", out],
                               capture_output=True, text=True, env=env, timeout=300)
            if p.returncode != 0:
                failures.append("%s: exit %d: %s" % (m, p.returncode, p.stderr[-2000:]))
                continue
            try:
                summary = json.loads(p.stdout)
                with open(out) as f:
                    trace = json.load(f)
            except (ValueError, OSError) as e:
                failures.append("%s: unreadable output: %s" % (m, e))
                continue
            errors, facts = validate_trace.validate(trace, TOL)
            failures += ["%s: %s" % (m, e) for e in errors]
            if not summary["compiles"]:
                failures.append("%s: no compile ids" % m)
            if len(facts["compile_ids"]) != len(summary["compiles"]):
                failures.append("%s: %d compile tracks, %d compile ids" % (m, len(facts["compile_ids"]), len(summary["compiles"])))
            byid = {c["id"]: c for c in summary["compiles"]}
            if warm:
                m += " (warm)"
                if not any(c["cache"].startswith("hit") for c in summary["compiles"]):
                    failures.append("%s: no compile id hit the disk cache on the second run" % m)
            for c in summary["compiles"]:
                s, w = c["phase_sum_ms"], c["first_call_ms"]
                rows.append((m, c["id"], c["cache"], s, w))
                if w > 0 and abs(s - w) > TOL * w:
                    failures.append("%s [%s]: phases %.3f ms vs %.3f ms measured around the compile id" % (m, c["id"], s, w))
            for call in summary["calls"]:
                ids = call["compile_ids"]
                if len(ids) != 1 or ids[0] not in byid:
                    continue
                c = byid[ids[0]]
                if "first run" not in [ph["name"] for ph in c["phases"]]:
                    continue
                s, w = c["phase_sum_ms"], call["first_call_ms"]
                rows.append((m, "call " + call["function"], c["cache"], s, w))
                if w > 0 and abs(s - w) > TOL * w:
                    failures.append("%s: %s's first call took %.3f ms, its compile phases add up to %.3f ms" % (m, call["function"], w, s))
            cats = {(e.get("cat"), e.get("pid")) for e in trace["traceEvents"] if e.get("ph") == "X"}
            if summary["replayed"] and not any(c == "call" for c, _ in cats):
                failures.append("%s: no cached-call spans on the runtime tracks" % m)
            if summary["replayed"] and any(call["kernels"] for call in summary["calls"]) and not any(c in ("kernel", "extern", "fallback") for c, _ in cats):
                failures.append("%s: a kernel table but no kernel spans" % m)
            print("%-48s valid=%s compile ids=%d breaks=%d recompiles=%d" % (
                m, "no" if errors else "yes", len(facts["compile_ids"]), facts["breaks"], facts["recompiles"]))
        # a trace that cannot be written: said so, exit 1, before the script runs
        bad = os.path.join(tmp, "no", "such", "dir", "trace.json")
        p = subprocess.run([a.fuselab, "profile", models[0], "-o", bad], capture_output=True, text=True, env=env, timeout=300)
        if p.returncode != 1 or "cannot write " + bad not in p.stderr:
            failures.append("unwritable trace: exit %d, stderr %r (want exit 1 and 'cannot write')" % (p.returncode, p.stderr[-300:]))
        # calls that differ in inputs or in grad mode are call sites of their own, each replayed
        # under its grad mode; repeats of a call are one
        calls_py = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench", "calls.py")
        p = subprocess.run([a.fuselab, "profile", "--json", "--budget", a.budget, calls_py, "-o", os.path.join(tmp, "calls.trace.json")],
                           capture_output=True, text=True, env=env, timeout=300)
        t84 = "Tensor(torch.Size([8, 4]) torch.float32), "
        want = [t84 + "2.0", t84 + "3.0", "Tensor(torch.Size([16, 4]) torch.float32), 3.0", t84 + "2.0 (under torch.no_grad())"]
        try:
            got = [c["inputs"] for c in json.loads(p.stdout)["calls"]] if p.returncode == 0 else p.stderr[-300:]
        except ValueError as e:
            got = "unreadable output: %s" % e
        if got != want:
            failures.append("tests/bench/calls.py: call sites %r, want %r" % (got, want))
    print("\n%-48s %-14s %-14s %12s %12s %8s" % ("model", "compile id", "cache", "phases ms", "measured ms", "ratio"))
    for m, cid, cache, s, w in rows:
        print("%-48s %-14s %-14s %12.3f %12.3f %7.1f%%" % (m, cid, cache, s, w, 100 * s / w if w else 0))
    for f in failures:
        print("FAIL " + f)
    print("%d models, %d failures" % (len(models), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
