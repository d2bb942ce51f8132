#!/usr/bin/python3
"""`fuselab bench`: the report carries every field the compiler backend promises, and its values agree
with each other, with the script and with `fuselab kernels`. Timings are only checked for having been
measured (positive, enough runs), never against a threshold.

Usage: /usr/bin/python3 tests/bench/check_bench.py --fuselab build/app/fuselab

Checks, each printed as `ok NAME` or `FAIL NAME: why`:
  1. the JSON of the seed example: machine (its BLAS kernels never OpenBLAS's Prescott fallback on
     a CPU with AVX2 and FMA, and a user's OPENBLAS_CORETYPE kept), threads, copy bandwidth, one
     entry per call site with its function, line and inputs, and every field of a call with the
     right type, the copy bandwidth timed between its runs included;
  2. per call: speedup = eager / cached, achieved GB/s = bytes / cached time, the phases add up to
     no more than the compile time, the first call took at least the compile time, at least 12
     timed runs of each kind, compiled equals eager within 1e-5;
  3. bytes_min is the bytes of the graph's tensor inputs (parameters included) and outputs,
     computed here from the model's shapes; the kernel counts are those `fuselab kernels` shows;
  4. the compile cache: a process with an empty cache reports every first call as a miss (the
     script's own run has filled the cache by then: the bench must not count that as a hit) and
     leaves one entry per graph (its replays compile the very source the script's calls did), a
     second process on the same cache reports every first call as a hit, and so does a bench after
     `fuselab run` of the same script;
  5. the grad mode of each call is the script's: a call under torch.no_grad() is replayed so, and
     calls that differ only in it are two entries; repeated calls with the same inputs are one;
  6. the text report: the threads and BLAS lines, one row per call, the no_grad marker, the copy
     between the call's runs, and a script with
     no compiled call says so (JSON: an empty list);
  7. user errors: a missing script, a bad --threads, a script that raises: a clear message on
     stderr, exit status 2 / 2 / 1, and none of our internals.
The last line is `N passed, M failed`; exit status 1 when something failed.
fuselab runs through tests/harness.py's fork servers (FUSELAB_TEST_NO_SERVER=1: fresh processes).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMEOUT_S = 300
MIN_RUNS = 12  # BenchOptions::minRuns

CALL_FIELDS = {"function": str, "file": str, "line": int, "inputs": str, "grad_mode": bool, "first_call_ms": float,
               "compile_ms": float, "phases_ms": dict, "cached_ms": float, "eager_ms": float, "speedup": float,
               "max_abs_diff": float, "bytes_min": int, "achieved_gbps": float, "copy_gbps": float, "copy_probes": int,
               "kernels": int, "cache": str, "cached_runs": int, "eager_runs": int}
PHASES = ["trace", "lower", "fuse", "codegen", "jit"]


def run(fuselab, args, cache, extra_env=None):
    """`fuselab ARGS...` (fuselab: a harness.Runner) with its disk cache in `cache`."""
    env = dict(os.environ, FUSELAB_CACHE_DIR=cache, OMP_NUM_THREADS="2", **(extra_env or {}))
    p = fuselab.run(args, cwd=REPO, env=env, timeout=TIMEOUT_S)
    if p.timed_out:
        raise subprocess.TimeoutExpired(fuselab.program + list(args), TIMEOUT_S, p.stdout, p.stderr)
    return p.returncode, harness.as_text(p.stdout), harness.as_text(p.stderr)


def close(a, b, rel=2e-5):
    return abs(a - b) <= rel * max(abs(a), abs(b))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fuselab", required=True)
    fuselab = harness.resolve_fuselab(ap.parse_args().fuselab)
    if not fuselab:
        return 2
    fuselab = harness.fuselab_runner(fuselab)
    checks = harness.Checks()
    report = checks.report

    def bench_json(script, cache, name, env=None):
        rc, out, err = run(fuselab, ["bench", "--json", "--threads", "2", script], cache, env)
        try:
            return json.loads(out) if rc == 0 else None, "exit %d: %s" % (rc, err[-500:])
        except ValueError as e:
            return None, "not JSON (%s): %r" % (e, out[:300])

    seed = os.path.join("resources", "models", "seed.py")
    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, "cache")
        first, why = bench_json(seed, cache, "seed")
        report("json parses", first is not None, why)
        if first is None:
            return checks.summary()

        # 1. fields
        m = first.get("machine", {})
        report("machine", isinstance(m.get("cpu"), str) and m["cpu"] and isinstance(m.get("cores"), int) and m["cores"] >= 1
               and isinstance(m.get("libtorch"), str) and m.get("compiler") in ("llvm", "cc"), repr(m))
        report("threads", first.get("threads") == 2, repr(first.get("threads")))
        # the BLAS: named; never OpenBLAS's Prescott fallback on a CPU with AVX2 and FMA (fuselab
        # has it choose again); a user's OPENBLAS_CORETYPE is kept
        flags = set()
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
        report("blas named", isinstance(m.get("blas"), str) and isinstance(m.get("blas_note"), str), repr(m))
        if {"avx2", "fma"} <= flags and m.get("blas"):
            report("blas not the Prescott fallback", m.get("blas") != "Prescott", repr(m))
            forced, why = bench_json(seed, cache, "seed, OPENBLAS_CORETYPE=Haswell", {"OPENBLAS_CORETYPE": "Haswell"})
            fm = forced.get("machine", {}) if forced else why
            report("OPENBLAS_CORETYPE kept", isinstance(fm, dict) and fm.get("blas") == "Haswell" and fm.get("blas_note") == "", repr(fm))
        cg = first.get("copy_gbps")
        report("copy bandwidth", isinstance(cg, (int, float)) and cg > 0 and math.isfinite(cg), repr(cg))
        calls = first.get("calls", [])
        sites = [(c.get("function"), c.get("line"), c.get("inputs")) for c in calls]
        report("call sites", sites == [("Sequential.forward", 6, "f32[32, 256]"), ("scaled_gelu", 10, "f32[4], 2.0")], repr(sites))
        for c in calls:
            name = "%s:%s" % (c.get("function"), c.get("line"))
            bad = []
            for k, t in CALL_FIELDS.items():
                v = c.get(k)
                ok = isinstance(v, (int, float)) and not isinstance(v, bool) if t is float else isinstance(v, t) and (t is not int or not isinstance(v, bool))
                if not ok:
                    bad.append("%s=%r" % (k, v))
            ph = c.get("phases_ms", {})
            bad += ["phases_ms.%s=%r" % (p, ph.get(p)) for p in PHASES if not isinstance(ph.get(p), (int, float)) or ph.get(p) < 0]
            report("fields " + name, not bad, ", ".join(bad))
            if bad:
                continue
            # 2. consistency
            report("speedup " + name, c["cached_ms"] > 0 and c["eager_ms"] > 0 and close(c["speedup"], c["eager_ms"] / c["cached_ms"]),
                   "speedup %r, eager %r / cached %r" % (c["speedup"], c["eager_ms"], c["cached_ms"]))
            report("achieved bandwidth " + name, close(c["achieved_gbps"], c["bytes_min"] / (c["cached_ms"] * 1e6)),
                   "%r GB/s for %r bytes in %r ms" % (c["achieved_gbps"], c["bytes_min"], c["cached_ms"]))
            total = sum(ph[p] for p in PHASES)
            report("phases within compile " + name, 0 < c["compile_ms"] and total <= c["compile_ms"] * (1 + 1e-4) + 1e-3
                   and c["first_call_ms"] >= c["compile_ms"], "phases %r sum %.4f, compile %r, first call %r" % (ph, total, c["compile_ms"], c["first_call_ms"]))
            report("runs " + name, c["cached_runs"] >= MIN_RUNS and c["eager_runs"] == c["cached_runs"],
                   "cached_runs %r eager_runs %r" % (c["cached_runs"], c["eager_runs"]))
            report("same as eager " + name, c["max_abs_diff"] <= 1e-5, "max_abs_diff %r" % c["max_abs_diff"])
            # a call with library calls is not probed (OpenBLAS's threads spin after them): it
            # divides by the copy before and after
            probed = c["copy_probes"] >= 1 if c.get("externs") == 0 else c["copy_probes"] == 0 and c["copy_gbps"] == first["copy_gbps"]
            report("copy between the runs " + name, probed and c["copy_gbps"] > 0 and math.isfinite(c["copy_gbps"]),
                   "copy_gbps %r from %r probes, %r library calls" % (c["copy_gbps"], c["copy_probes"], c.get("externs")))

        # 3. bytes and kernels, from the model's shapes and from `fuselab kernels`
        f32 = 4
        mlp = (32 * 256 + 256 * 256 + 256 + 10 * 256 + 10) * f32 + 32 * 10 * f32  # x, two Linear layers; the output
        gelu = 4 * f32 + 4 * f32
        report("bytes_min", [c.get("bytes_min") for c in calls] == [mlp, gelu], "got %r, want %r" % ([c.get("bytes_min") for c in calls], [mlp, gelu]))
        rc, kt, ke = run(fuselab, ["kernels", seed], cache)
        # entries' lines name their function and file; a training forward's and backward's do not
        counts = [int(x) for x in re.findall(r"^== \[[^\]]*\] \S+ \(.*?\): (\d+) kernels", kt, re.M)]
        report("kernel counts", rc == 0 and counts == [c.get("kernels") for c in calls], "kernels shows %r, bench %r" % (counts, [c.get("kernels") for c in calls]))

        # 4. the cache: misses in a fresh process, hits in the next one
        report("first process misses", [c.get("cache") for c in calls] == ["miss", "miss"], repr([c.get("cache") for c in calls]))
        entries = sorted(f for f in os.listdir(cache) if f.endswith(".so"))
        # per graph one entry, and for a call timed as training (backward compiled) two more: the
        # training forward and the backward
        want = 2 + 2 * sum(1 for c in calls if c.get("training") and c.get("backward") == "compiled")
        report("one cache entry per graph", len(entries) == want, "%r, want %d (a replay that traced other kernel comments than the script's call writes a second entry)" % (entries, want))
        second, why = bench_json(seed, cache, "seed again")
        got = [c.get("cache") for c in second["calls"]] if second else why
        report("second process hits", got == ["hit", "hit"], repr(got))
        ran = os.path.join(tmp, "ran")
        rc, out, err = run(fuselab, ["run", seed], ran)
        after_run, why = bench_json(seed, ran, "seed after run")
        got = [c.get("cache") for c in after_run["calls"]] if after_run else why
        report("hits what fuselab run compiled", rc == 0 and got == ["hit", "hit"], "exit %d, %r" % (rc, got))

        # 5. grad mode and distinct calls
        d, why = bench_json(os.path.join("tests", "bench", "calls.py"), cache, "calls")
        got = [(c.get("inputs"), c.get("grad_mode")) for c in d["calls"]] if d else why
        want = [("f32[8, 4], 2.0", True), ("f32[8, 4], 3.0", True), ("f32[16, 4], 3.0", True), ("f32[8, 4], 2.0", False)]
        report("one entry per distinct call and grad mode", got == want, "got %r, want %r" % (got, want))
        mlp32 = os.path.join("resources", "models", "bench", "seed_mlp_b32.py")
        d, why = bench_json(mlp32, cache, "seed_mlp_b32")
        got = [c.get("grad_mode") for c in d["calls"]] if d else why
        report("no_grad call replayed under no_grad", got == [False], repr(got))
        report("seed call replayed with grad", [c.get("grad_mode") for c in calls] == [True, True], repr([c.get("grad_mode") for c in calls]))

        # 6. the text report
        rc, out, err = run(fuselab, ["bench", "--threads", "2", mlp32], cache)
        rows = [l for l in out.splitlines() if re.match(r"^\S+:\d+\s+[\d.]+", l)]
        report("text report", rc == 0 and "threads: 2;" in out and len(rows) == 1 and rows[0].startswith("Sequential.forward:")
               and "(under torch.no_grad())" in out and re.search(r"\(BLAS: \S+\)", out)
               and "%copy divides by the copy before and after the calls" in out,
               "exit %d: %r %s" % (rc, out[-600:], err[-300:]))
        empty_py = os.path.join(tmp, "empty.py")
        with open(empty_py, "w") as fh:
            fh.write("import torch\nprint(torch.ones(2).sum())\n")
        rc, out, err = run(fuselab, ["bench", empty_py], cache)
        rcj, outj, errj = run(fuselab, ["bench", "--json", empty_py], cache)
        ok = rc == 0 and "(no compiled calls" in out and rcj == 0
        try:
            ok = ok and json.loads(outj)["calls"] == []
        except ValueError:
            ok = False
        report("no compiled calls", ok, "exit %d/%d: %r %r" % (rc, rcj, out[-300:], outj[-300:]))

        # 7. user errors
        def clean(err):
            return not re.search(r"terminate called|std::|Traceback \(most recent call last\):\n  File \".*\.cpp|Segmentation|Aborted", err)

        missing = os.path.join(tmp, "no_such_model.py")
        rc, out, err = run(fuselab, ["bench", missing], cache)
        report("missing script", rc == 2 and "no_such_model.py" in err and clean(err), "exit %d: %r" % (rc, err[-300:]))
        rc, out, err = run(fuselab, ["bench", "--threads", "0", seed], cache)
        report("bad --threads", rc == 2 and "--threads" in err and clean(err), "exit %d: %r" % (rc, err[-300:]))
        raising = os.path.join(tmp, "raises.py")
        with open(raising, "w") as fh:
            fh.write("import torch\n\n@torch.compile\ndef f(x):\n    return x + 1\n\nf(torch.ones(2))\nraise ValueError('model script failed on purpose')\n")
        rc, out, err = run(fuselab, ["bench", raising], cache)
        report("script that raises", rc == 1 and "ValueError: model script failed on purpose" in err and "raises.py" in err
               and "nothing to benchmark" in err and clean(err), "exit %d: %r" % (rc, err[-500:]))

    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
