#!/usr/bin/python3
"""Compiler tests: the backend's kernels compute what eager computes, fuse what they should, come out
identical from run to run, and survive a damaged cache.

Usage: /usr/bin/python3 tests/compiler/run_compiler_tests.py --fuselab build/app/fuselab [--filter SUBSTR] [--jobs N]

Checks, each printed as `ok NAME` or `FAIL NAME: why`:
  1. every script in tests/compiler/cases/ and resources/models/bench/ prints the same under
     `fuselab run` (compiled kernels) as under `fuselab run --no-compile` (eager), and none of its
     printed checks is False;
  2. `fuselab kernels` shows the kernel / library call / eager op counts of expected.json for each
     graph, and no graph runs op by op;
  3. `fuselab kernels` output is byte-identical across two processes with fresh caches (softmax
     rows, the transformer block, views, two-stage loops);
  4. the disk cache: a second process loads the kernels from disk; a truncated or corrupted cache
     entry is detected and rewritten, and the results stay right;
  5. the system-compiler backend (LLVM plugin switched off) generates the same kernel sources and
     the same results;
  6. the shape of the generated code: buffers are restrict-qualified parameters, loops calling
     transcendental math ask for interleaving, softmax computes exp once per element (the
     loop that sums it keeps it for the loop that divides), and large output rows of loops not
     bound by math that read their row from memory are streamed past the caches when they do not
     fit in the last-level cache beside their input (FUSELAB_LLC_BYTES); values fixed for
     the row (layer_norm's 1 / sqrt(var + eps), softmax's 1 / sum) are computed once per row and
     stay out of the element loops' assembly; a pointwise loop with chained costly math
     (pointwise_chain's tanh of x * sigmoid(x)) computes the first value a block ahead, in the
     loop of the second, and one with a single costly call (gated_activation) does not.
The last line is `N passed, M failed`; exit status 1 when something failed.

fuselab runs through tests/harness.py's fork servers (FUSELAB_TEST_NO_SERVER=1: fresh processes):
each run is still a process of its own, with its own memory caches, so a second run finds only
what the first left on disk. The determinism checks (3) run fresh processes: forked children share
their server's addresses, which could hide an order that depends on them.
"""
import argparse
import concurrent.futures
import functools
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(REPO, "tests", "compiler")
TIMEOUT_S = 300


def run(fuselab, args, cache, extra_env=None, fresh=False):
    """`fuselab ARGS...` (fuselab: a harness.Runner) with its disk cache in `cache`."""
    env = dict(os.environ, FUSELAB_CACHE_DIR=cache, OMP_NUM_THREADS="2")
    env.update(extra_env or {})
    p = fuselab.run(args, cwd=REPO, env=env, timeout=TIMEOUT_S, fresh=fresh)
    if p.timed_out:
        raise subprocess.TimeoutExpired(fuselab.program + list(args), TIMEOUT_S, p.stdout, p.stderr)
    return p.returncode, harness.as_text(p.stdout), harness.as_text(p.stderr)


def graph_counts(kernels_text):
    """[(kernels, library calls, eager ops, op-by-op?)] per compiled graph of `fuselab kernels`."""
    out = []
    for line in kernels_text.splitlines():
        m = re.match(r"== \[.*?\] .*: (\d+) kernels, (\d+) library calls, (\d+) eager ops", line)
        if m:
            out.append([int(m.group(1)), int(m.group(2)), int(m.group(3)), False])
        elif line.startswith("   runs op by op") and out:
            out[-1][3] = True
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fuselab", required=True)
    ap.add_argument("--filter", default=None)
    ap.add_argument("--jobs", type=int, default=2, help="fuselab runs in parallel (default 2)")
    a = ap.parse_args()
    fuselab = os.path.abspath(a.fuselab)
    if not os.access(fuselab, os.X_OK):
        print("error: fuselab binary not found: %s" % a.fuselab, file=sys.stderr)
        return 2
    fuselab = harness.fuselab_runner(fuselab)
    expected = json.load(open(os.path.join(HERE, "expected.json")))
    scripts = sorted(glob.glob(os.path.join(HERE, "cases", "*.py")) + glob.glob(os.path.join(REPO, "resources", "models", "bench", "*.py")))
    scripts = [s for s in scripts if not a.filter or a.filter in s]
    checks = harness.Checks()
    report = checks.report
    # the scripts' runs are independent: a.jobs at a time, reported in order
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs))

    with tempfile.TemporaryDirectory() as tmp:
        shared = os.path.join(tmp, "shared")

        def case(path):
            rel = os.path.relpath(path, REPO)
            found = []
            rc1, out1, err1 = run(fuselab, ["run", rel], shared)
            rc0, out0, err0 = run(fuselab, ["run", "--no-compile", rel], shared)
            bad = [l for l in out1.splitlines() if re.search(r"\bFalse\b", l)]
            found.append(("same-as-eager " + rel, rc1 == 0 and rc0 == 0 and out1 == out0 and not bad,
                          "exit %d/%d; compiled printed %r, eager printed %r %s" % (rc1, rc0, out1[-300:], out0[-300:], err1[-500:])))
            rc, kt, ke = run(fuselab, ["kernels", rel], shared)
            counts = graph_counts(kt)
            want = expected.get(os.path.basename(path))
            ok = rc == 0 and counts and not any(c[3] for c in counts)
            why = "exit %d, graphs %r %s" % (rc, counts, ke[-300:])
            if ok and want is not None:
                ok = [c[:3] for c in counts] == want
                why = "expected %r (kernels, library calls, eager ops per graph), got %r" % (want, [c[:3] for c in counts])
            found.append(("kernels " + rel, ok, why))
            return found

        for found in pool.map(case, scripts):
            for name, ok, why in found:
                report(name, ok, why)

        # determinism: two fresh processes, two fresh caches
        det = [(name, i) for name in ["softmax_rows.py", "transformer_block.py", "ops_and_views.py", "two_stage.py"]
               for i in range(2) if any(os.path.basename(p) == name for p in scripts)]

        def det_run(job):
            name, i = job
            rel = os.path.relpath([p for p in scripts if os.path.basename(p) == name][0], REPO)
            return rel, run(fuselab, ["kernels", "--decisions", rel], os.path.join(tmp, "det%d-%s" % (i, name)), fresh=True)[1]

        det_out = list(pool.map(det_run, det))
        for k in range(0, len(det_out), 2):
            rel, outs = det_out[k][0], [det_out[k][1], det_out[k + 1][1]]
            report("deterministic " + rel, outs[0] == outs[1] and outs[0], "kernels output differs between two runs")

        # the shape of the generated code
        # streaming depends on the last-level cache: these checks name one of 16 MiB, so that
        # rmsnorm's 16 MiB output does not fit beside its input
        small_llc = {"FUSELAB_LLC_BYTES": str(16 << 20)}

        @functools.lru_cache(maxsize=None)
        def kernels_text(rel, llc):
            return run(fuselab, ["kernels", rel], shared, {"FUSELAB_LLC_BYTES": llc})[1]

        def kernel_loops(rel, extra_env=small_llc):
            """[(loop header line, its body text)] of every innermost loop of every kernel (each
            script's kernels are asked for once per cache size)."""
            text = kernels_text(rel, extra_env["FUSELAB_LLC_BYTES"])
            code = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("static inline"))
            return text, re.findall(r"\n( *)(for \(long r0 = [^\n]*|for \(long l = [^\n]*|for \(long x\d+ = [^\n]*)\n(.*?)\n\1\}", code, re.S)

        # every script's kernels at both cache sizes, a.jobs at a time, before the checks read them
        anchor = lambda n: os.path.join("resources", "models", "bench", n)
        list(pool.map(lambda job: kernels_text(*job),
                      [(anchor(n), small_llc["FUSELAB_LLC_BYTES"]) for n in ["softmax_rows.py", "pointwise_chain.py", "rmsnorm.py",
                                                                          "layernorm_gelu_residual.py", "gated_activation.py", "masked_softmax.py"]]
                      + [(anchor("rmsnorm.py"), str(1 << 30))]))

        text, loops = kernel_loops(os.path.join("resources", "models", "bench", "softmax_rows.py"))
        exp_loops = [body for _, head, body in loops if "fl_exp_nonpos(" in body]
        reads_kept = [body for _, head, body in loops if re.search(r"= kept\d+\[r0\];", body) and "fl_exp_nonpos(" not in body]
        report("softmax computes exp once", len(exp_loops) == 2 and all(re.search(r"kept\d+\[r0\] = t\d+;", b) for b in exp_loops) and reads_kept,
               "loops calling fl_exp_nonpos: %d (want the sum loop and its tail), loops reading the kept row: %d" % (len(exp_loops), len(reads_kept)))
        text, loops = kernel_loops(os.path.join("resources", "models", "bench", "pointwise_chain.py"))
        rms = kernel_loops(os.path.join("resources", "models", "bench", "rmsnorm.py"))[0]
        report("large rows streamed where the loop reads its row from memory and is not bound by math",
               "fl_stream_row(&buf" in rms
               and "fl_stream_row(&" not in kernel_loops(os.path.join("resources", "models", "bench", "layernorm_gelu_residual.py"))[0]
               and "fl_stream_row(&" not in kernel_loops(os.path.join("resources", "models", "bench", "softmax_rows.py"))[0],
               "rmsnorm should write its output rows with fl_stream_row; layernorm_gelu_residual (gelu in its store loop) and "
               "softmax_rows (its store loop reads only the kept exp) should not")
        big = kernel_loops(os.path.join("resources", "models", "bench", "rmsnorm.py"), {"FUSELAB_LLC_BYTES": str(1 << 30)})[0]
        report("outputs that fit in the last-level cache beside their input are not streamed",
               "fl_stream_row(" not in big and "cpp_fused" in big, "rmsnorm with a 1 GiB last-level cache: %r" % big[-600:])
        report("restrict parameters and interleaved math",
               re.search(r"static void cpp_fused_\w+_rows\(\n    const float\* __restrict in0,", text) is not None
               and re.search(r"#pragma clang loop interleave_count\(4\)\n *for \(long x0", text) is not None,
               "kernel text: %r" % text[-1500:])
        report("a blocked loop bound by math fetches the next row block's inputs, and its outputs for writing",
               re.search(r"for \(long b0 = j0; b0 < j1; b0 \+= 64\) \{\n.*\n *for \(long c = 0; c < 64; c \+= 16\) "
                         r"__builtin_prefetch\(&in0\[\(\(b0 \+ 4096\) \+ c\)\]\);\n"
                         r" *for \(long c = 0; c < 64; c \+= 16\) __builtin_prefetch\(&buf\d+\[\(\(b0 \+ 4096\) \+ c\)\], 1\);", text) is not None,
               "kernel text: %r" % text[-1500:])
        # chained costly math: sigmoid's value is computed a block ahead, in the loop that runs tanh
        both = [body for _, head, body in loops if head.startswith("for (long x0 = b0; x0 < both;")]
        gated = kernel_loops(os.path.join("resources", "models", "bench", "gated_activation.py"))[0]
        report("chained costly math runs in two stages, a block apart",
               len(both) == 1 and re.search(r"= in0\[\(x0 \+ 64\)\];\n.*fl_sigmoid\(.*\n *fl_next\[x0 - b0\] = t\d+;\n"
                                            r" *const float (t\d+) = fl_this\[x0 - b0\];\n *const float t\d+ = fl_tanh\(\1\);", both[0], re.S) is not None
               and "fl_stage_a[" not in gated and "cpp_fused" in gated,
               "pointwise_chain's loop over both stages: %r; gated_activation (one costly call) should have one stage" % (both[:1],))
        ln = kernel_loops(os.path.join("resources", "models", "bench", "layernorm_gelu_residual.py"))[0]
        sm = kernel_loops(os.path.join("resources", "models", "bench", "softmax_rows.py"))[0]
        ms = kernel_loops(os.path.join("resources", "models", "bench", "masked_softmax.py"))[0]
        report("reduction kernels fetch the next row's outputs for writing, except rows streamed past the caches",
               re.search(r"__builtin_prefetch\(&buf\d+\[\(nx0\*1024 \+ \(r0b \+ c\)\)\], 1\);", ln) is not None
               and re.search(r"__builtin_prefetch\(&buf\d+\[\(nx0\*1024 \+ \(r0b \+ c\)\)\], 1\);", sm) is not None
               and "fl_stream_row(&" not in ms and ", 1);" in ms
               and "fl_stream_row(&buf" in rms and ", 1);" not in rms,
               "layernorm_gelu_residual, softmax_rows and masked_softmax should prefetch their output rows with prefetchw, "
               "rmsnorm (streamed rows) should not")

        # values fixed for the row: computed before the row's loops, reciprocals kept opaque so
        # that the C++ compiler cannot turn x * (1 / s) back into a divide per element
        sm_text, sm_loops = kernel_loops(os.path.join("resources", "models", "bench", "softmax_rows.py"))
        ln_text, ln_loops = kernel_loops(os.path.join("resources", "models", "bench", "layernorm_gelu_residual.py"))
        in_loops = [body for _, _, body in sm_loops + ln_loops if re.search(r"fl_rsqrt\(|/ 1024\.0f|1\.0f / ", body)]
        report("row values computed once per row, reciprocals opaque",
               "fl_opaque(fl_rsqrt(t" in ln_text and re.search(r"fl_opaque\(1\.0f / buf\d+_v\)", sm_text) is not None and not in_loops,
               "layer_norm's 1 / sqrt(var + eps) and softmax's 1 / sum should be computed once per row inside fl_opaque; "
               "computed in the loops: %r" % in_loops[:2])
        _, asm, _ = run(fuselab, ["kernels", "--asm", os.path.join("resources", "models", "bench", "layernorm_gelu_residual.py")], shared)
        if "vfmadd" in asm:  # x86 with FMA: the LLVM backend's assembly
            report("no divide per element in layernorm_gelu_residual's assembly", "vdivps" not in asm and "divss" in asm,
                   "divides: %r" % re.findall(r"\S*div\S* [^\n]*", asm)[:4])

        # disk cache: miss, then a hit from a second process, then damaged entries rewritten
        case = os.path.join("tests", "compiler", "cases", "ops_and_views.py")
        cache = os.path.join(tmp, "cache")
        _, first, _ = run(fuselab, ["kernels", case], cache)
        _, second, _ = run(fuselab, ["kernels", case], cache)
        report("cache miss then disk hit", "(cache miss)" in first and "(cache disk)" in second and "(cache miss)" not in second,
               "first run: %r second run: %r" % (first.splitlines()[:1], second.splitlines()[:1]))
        sos = glob.glob(os.path.join(cache, "*.so"))
        for i, so in enumerate(sos):
            data = open(so, "rb").read()
            with open(so, "wb") as f:  # truncated, or with bytes flipped in the middle
                f.write(data[: len(data) // 3] if i % 2 == 0 else data[:100] + bytes(b ^ 0xFF for b in data[100:200]) + data[200:])
        for meta in glob.glob(os.path.join(cache, "*.meta"))[:1]:
            open(meta, "w").write("garbage\n")
        rc, out, err = run(fuselab, ["run", case], cache)
        _, third, _ = run(fuselab, ["kernels", case], cache)
        report("damaged cache entries are rewritten", rc == 0 and "False" not in out and bool(sos) and "(cache disk)" in third,
               "exit %d, output %r, %d entries damaged, then %r" % (rc, out[-200:], len(sos), third.splitlines()[:1]))

        # the system compiler: same sources, same results
        off = {"FUSELAB_LLVM_PLUGIN": ""}

        def system_compiler(rel):
            name = os.path.basename(rel)
            _, llvm_k, _ = run(fuselab, ["kernels", rel], os.path.join(tmp, "l-" + name))
            _, cc_k, _ = run(fuselab, ["kernels", rel], os.path.join(tmp, "c-" + name), off)
            rc, cc_out, _ = run(fuselab, ["run", rel], os.path.join(tmp, "c-" + name), off)
            strip = lambda t: "\n".join(l for l in t.splitlines() if not l.startswith("== "))
            return ("system compiler " + rel, "compiled by cc" in cc_k and strip(llvm_k) == strip(cc_k) and rc == 0 and "False" not in cc_out,
                    "cc header %r, sources equal %s, output %r" % (cc_k.splitlines()[:1], strip(llvm_k) == strip(cc_k), cc_out[-200:]))

        for found in pool.map(system_compiler, [os.path.join("tests", "compiler", "cases", name) for name in ["ops_and_views.py", "masks_and_scalars.py", "row_reuse.py"]] + [
                os.path.join("resources", "models", "bench", "rmsnorm.py"),  # streamed rows: plain stores under g++
                os.path.join("resources", "models", "bench", "pointwise_chain.py")]):  # two-stage loops
            report(*found)

    pool.shutdown()
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
