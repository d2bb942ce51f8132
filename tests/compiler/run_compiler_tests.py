#!/usr/bin/python3
"""Compiler tests: the backend's kernels compute what eager computes, fuse what they should, come out
identical from run to run, and survive a damaged cache.

Usage: /usr/bin/python3 tests/compiler/run_compiler_tests.py --fuselab build/app/fuselab [--filter SUBSTR] [--jobs N]
           [--part cases|code|cache]   (checks 1-2, 3 and 6, 4-5; CTest runs the three parts side by side)

Checks, each printed as `ok NAME` or `FAIL NAME: why`:
  1. every script in tests/compiler/cases/ and resources/models/bench/ prints the same under
     `fuselab run` (compiled kernels) as under `fuselab run --no-compile` (eager), and none of its
     printed checks is False (the edge_* and special_values cases compare torch.compile(f) with f
     inside the script: dtype, shape, strides, NaN, the sign of zero, values; see their compare());
  2. `fuselab kernels` shows the kernel / library call / eager op counts of expected.json for each
     graph, and no graph runs op by op;
  3. `fuselab kernels` output is byte-identical across two processes with fresh caches (softmax
     rows, the transformer block, views, two-stage loops);
  4. the disk cache: a second process loads the kernels from disk; truncated, corrupted, swapped
     (two entries of one kernel name, each under the other's name), foreign (random bytes) entries
     and a directory or FIFO in an entry's place are detected and rewritten, the results stay right
     and the user is told once per process; four processes filling one empty cache at once all
     print the right results and leave whole entries; the same script in two folders shares its
     entries (kernel comments name the script; keys do not);
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
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.join(REPO, "tests", "compiler")
TIMEOUT_S = 300
PARTS = ("cases", "code", "cache")


def run(fuselab, args, cache, extra_env=None, timeout=TIMEOUT_S, fresh=False):
    """`fuselab ARGS` with cache as its compile cache: (exit status, stdout, stderr) as text. Every
    variable these runs change is one fuselab reads after start-up (harness.FUSELAB_LATE_ENV), so
    all of them fork from the same loaded server. fresh: a new process instead (children of one
    server share its addresses, which could hide an order that depends on them)."""
    env = dict(os.environ, FUSELAB_CACHE_DIR=cache, OMP_NUM_THREADS="2")
    env.update(extra_env or {})
    runner = harness.shared_fuselab_runner(fuselab)
    r = runner.run(args, cwd=REPO, env=env, timeout=timeout, fresh=fresh)
    if r.timed_out:
        return 124, "", "(still running after %d s: killed)" % timeout
    return r.returncode, harness.as_text(r.stdout), harness.as_text(r.stderr)


NOTICE = "fuselab: compile cache entry "


def notices(stderr):
    """The lines that tell the user a disk cache entry was bad."""
    return [l for l in stderr.splitlines() if l.startswith(NOTICE)]


def entries(cache):
    """{entry hash: (.so path, .meta path)} of a cache directory."""
    return {os.path.basename(m)[:-5]: (m[:-5] + ".so", m) for m in glob.glob(os.path.join(cache, "*.meta"))}


# Two scripts whose one kernel has the same name (cpp_fused_relu_sub_0) and computes another thing.
SWAP_SCRIPTS = {
    "relu_minus_x.py": "import torch\n\n\n@torch.compile\ndef f(x):\n    return torch.relu(x) - x\n\n\n"
                       "print(f(torch.arange(-4.0, 4.0)))\n",
    "x_minus_relu.py": "import torch\n\n\n@torch.compile\ndef f(x):\n    return x - torch.relu(x)\n\n\n"
                       "print(f(torch.arange(-4.0, 4.0)))\n",
}


def graph_counts(kernels_text):
    """[(kernels, library calls, eager ops, op-by-op?)] per compiled entry of `fuselab kernels`."""
    out = []
    for line in kernels_text.splitlines():
        # an entry's line names its function and file; its training forward's and backward's do not
        m = re.match(r"== \[[^\]]*\] \S+ \(.*?\): (\d+) kernels, (\d+) library calls, (\d+) eager ops", line)
        if m:
            out.append([int(m.group(1)), int(m.group(2)), int(m.group(3)), False])
        elif line.startswith("   runs op by op") and out:
            out[-1][3] = True
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fuselab", required=True)
    ap.add_argument("--filter", default=None)
    ap.add_argument("--jobs", type=int, default=2, help="scripts run at once by the cases part (default 2)")
    ap.add_argument("--part", choices=PARTS + ("all",), default="all",
                    help="cases: checks 1-2; code: 3 and 6; cache: 4-5 (CTest runs the three side by side)")
    a = ap.parse_args()
    parts = PARTS if a.part == "all" else (a.part,)
    fuselab = os.path.abspath(a.fuselab)
    if not os.access(fuselab, os.X_OK):
        print("error: fuselab binary not found: %s" % a.fuselab, file=sys.stderr)
        return 2
    expected = json.load(open(os.path.join(HERE, "expected.json")))
    scripts = sorted(glob.glob(os.path.join(HERE, "cases", "*.py")) + glob.glob(os.path.join(REPO, "resources", "models", "bench", "*.py")))
    scripts = [s for s in scripts if not a.filter or a.filter in s]
    checks = harness.Checks()
    report = checks.report

    with tempfile.TemporaryDirectory() as tmp:
        shared = os.path.join(tmp, "shared")
        if "cases" in parts:
            def case_checks(path):
                """[(name, ok, why)] of checks 1 and 2 for one script."""
                rel = os.path.relpath(path, REPO)
                rc1, out1, err1 = run(fuselab, ["run", rel], shared)
                rc0, out0, err0 = run(fuselab, ["run", "--no-compile", rel], shared)
                bad = [l for l in out1.splitlines() if re.search(r"\bFalse\b", l)]
                found = [("same-as-eager " + rel, rc1 == 0 and rc0 == 0 and out1 == out0 and not bad,
                          "exit %d/%d; compiled printed %r, eager printed %r %s" % (rc1, rc0, out1[-300:], out0[-300:], err1[-500:]))]
                rc, kt, ke = run(fuselab, ["kernels", rel], shared)
                counts = graph_counts(kt)
                want = expected.get(os.path.basename(path))
                ok = rc == 0 and counts and not any(c[3] for c in counts)
                why = "exit %d, graphs %r %s" % (rc, counts, ke[-300:])
                if ok and want is not None:
                    ok = [c[:3] for c in counts] == want
                    why = "expected %r (kernels, library calls, eager ops per graph), got %r" % (want, [c[:3] for c in counts])
                return found + [("kernels " + rel, ok, why)]

            # two scripts at a time (CTest gives this part two slots); reports in script order
            with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
                for found in pool.map(case_checks, scripts):
                    for name, ok, why in found:
                        report(name, ok, why)

        if "code" in parts:
            # determinism: two fresh processes, two fresh caches
            for name in ["softmax_rows.py", "transformer_block.py", "ops_and_views.py", "two_stage.py"]:
                path = [p for p in scripts if os.path.basename(p) == name]
                if not path:
                    continue
                rel = os.path.relpath(path[0], REPO)
                outs = [run(fuselab, ["kernels", "--decisions", rel], os.path.join(tmp, "det%d-%s" % (i, name)), fresh=True)[1] for i in range(2)]
                report("deterministic " + rel, outs[0] == outs[1] and outs[0], "kernels output differs between two runs")

            # the shape of the generated code
            # streaming depends on the last-level cache: these checks name one of 16 MiB, so that
            # rmsnorm's 16 MiB output does not fit beside its input
            small_llc = {"FUSELAB_LLC_BYTES": str(16 << 20)}

            def kernel_loops(rel, extra_env=small_llc):
                """[(loop header line, its body text)] of every innermost loop of every kernel."""
                _, text, _ = run(fuselab, ["kernels", rel], shared, extra_env)
                code = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("static inline"))
                return text, re.findall(r"\n( *)(for \(long r0 = [^\n]*|for \(long l = [^\n]*|for \(long x\d+ = [^\n]*)\n(.*?)\n\1\}", code, re.S)

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

        if "cache" in parts:
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
            report("damaged cache entries are told once per process", len(notices(err)) == 1 and notices(err)[0].endswith("; rebuilt"),
                   "stderr: %r" % err[-600:])

            # entries that are not what their name says: each is rebuilt, the script prints what eager
            # prints, and the user is told once
            _, eager, _ = run(fuselab, ["run", "--no-compile", case], cache)
            good = os.path.join(tmp, "good-cache")
            run(fuselab, ["run", case], good)

            def to_dir(path):
                os.remove(path)
                os.mkdir(path)

            def to_fifo(path):
                os.remove(path)
                os.mkfifo(path)

            def to_random(path):
                open(path, "wb").write(os.urandom(max(os.path.getsize(path), 64)))

            for what, which, damage in [("a directory in place of a .so", 0, to_dir), ("a FIFO in place of a .meta", 1, to_fifo),
                                        ("random bytes in place of a .so", 0, to_random), ("random bytes in place of a .meta", 1, to_random)]:
                hostile = os.path.join(tmp, "hostile")
                shutil.rmtree(hostile, ignore_errors=True)
                shutil.copytree(good, hostile)
                victim = sorted(entries(hostile).values())[0][which]
                damage(victim)
                rc, out, err = run(fuselab, ["run", case], hostile, timeout=120)
                _, again, again_err = run(fuselab, ["kernels", case], hostile, timeout=120)
                told = notices(err)
                report("cache entry with " + what + ": rebuilt, told once",
                       rc == 0 and out == eager and len(told) == 1 and victim in told[0] and "(cache disk)" in again and not notices(again_err),
                       "exit %d, output %r (eager %r), stderr %r, then %r" % (rc, out[-200:], eager[-200:], err[-400:], again.splitlines()[:1]))

            # two entries whose kernels share a name, each under the other's name: size, hash and symbol
            # all check out, only the key they were written for tells them apart
            swap_dir = os.path.join(tmp, "swap-scripts")
            os.makedirs(swap_dir)
            swap = os.path.join(tmp, "swap-cache")
            owned = {}
            for name, text in sorted(SWAP_SCRIPTS.items()):
                open(os.path.join(swap_dir, name), "w").write(text)
                before = set(entries(swap))
                _, kt, _ = run(fuselab, ["kernels", os.path.join(swap_dir, name)], swap)
                owned[name] = (set(entries(swap)) - before, re.findall(r"\bcpp_fused_\w+", kt))
            (a_name, (a_new, a_kernels)), (b_name, (b_new, b_kernels)) = sorted(owned.items())
            same_symbol = len(a_new) == 1 and len(b_new) == 1 and a_kernels and set(a_kernels) == set(b_kernels)
            if same_symbol:
                (a_hash,), (b_hash,) = a_new, b_new
                for ext in (".so", ".meta"):
                    pa, pb = os.path.join(swap, a_hash + ext), os.path.join(swap, b_hash + ext)
                    os.rename(pa, pa + ".x")
                    os.rename(pb, pa)
                    os.rename(pa + ".x", pb)
            results = []
            for name in (a_name, b_name):
                path = os.path.join(swap_dir, name)
                rc, out, err = run(fuselab, ["run", path], swap)
                _, want, _ = run(fuselab, ["run", "--no-compile", path], swap)
                results.append((rc, out, want, notices(err)))
            report("swapped cache entries of one kernel name are rebuilt, told once",
                   same_symbol and all(rc == 0 and out == want and len(told) == 1 for rc, out, want, told in results),
                   "kernels %r / %r, entries %r / %r; runs (exit, compiled, eager, notices): %r" % (a_kernels, b_kernels, a_new, b_new, results))

            # four processes fill one empty cache at once
            conc = os.path.join(tmp, "concurrent")
            env = dict(os.environ, FUSELAB_CACHE_DIR=conc, OMP_NUM_THREADS="2")
            procs = [subprocess.Popen([fuselab, "run", case], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                     for _ in range(4)]
            outs = [p.communicate(timeout=TIMEOUT_S) + (p.returncode,) for p in procs]
            _, after, _ = run(fuselab, ["kernels", case], conc)
            names = sorted(os.listdir(conc))
            report("four processes filling one empty cache at once",
                   all(rc == 0 and out == eager and not notices(err) for out, err, rc in outs)
                   and "(cache disk)" in after and "(cache miss)" not in after and names and all(n.endswith((".so", ".meta")) for n in names),
                   "runs (stdout tail, stderr tail, exit): %r; then %r; files %r" % ([(o[-100:], e[-300:], rc) for o, e, rc in outs],
                                                                                    after.splitlines()[:1], names))

            # the same script in two folders: the kernels name their own script, the cache entry is shared
            src = open(os.path.join(REPO, case)).read()
            copies = []
            for folder in ("home-a/models", "elsewhere/b c"):
                os.makedirs(os.path.join(tmp, folder))
                copies.append(os.path.join(tmp, folder, "ops_and_views.py"))
                open(copies[-1], "w").write(src)
            moved = os.path.join(tmp, "moved-cache")
            _, ka, _ = run(fuselab, ["kernels", copies[0]], moved)
            _, kb, _ = run(fuselab, ["kernels", copies[1]], moved)
            rc, out, _ = run(fuselab, ["run", copies[1]], moved)
            report("the same script in another folder hits the disk cache",
                   "(cache miss)" in ka and "(cache disk)" in kb and "(cache miss)" not in kb and rc == 0 and "False" not in out,
                   "first copy %r, second copy %r" % (ka.splitlines()[:1], kb.splitlines()[:1]))
            report("and its kernels still name their own script",
                   copies[0] in ka and copies[1] in kb and copies[0] not in kb,
                   "second copy's kernels: %r" % kb[:800])

        if "cache" in parts:
            # the system compiler: same sources, same results
            off = {"FUSELAB_LLVM_PLUGIN": ""}
            for rel in [os.path.join("tests", "compiler", "cases", name) for name in ["ops_and_views.py", "masks_and_scalars.py", "row_reuse.py"]] + [
                    os.path.join("resources", "models", "bench", "rmsnorm.py"),  # streamed rows: plain stores under g++
                    os.path.join("resources", "models", "bench", "pointwise_chain.py")]:  # two-stage loops
                name = os.path.basename(rel)
                _, llvm_k, _ = run(fuselab, ["kernels", rel], os.path.join(tmp, "l-" + name))
                _, cc_k, _ = run(fuselab, ["kernels", rel], os.path.join(tmp, "c-" + name), off)
                rc, cc_out, _ = run(fuselab, ["run", rel], os.path.join(tmp, "c-" + name), off)
                strip = lambda t: "\n".join(l for l in t.splitlines() if not l.startswith("== "))
                report("system compiler " + rel, "compiled by cc" in cc_k and strip(llvm_k) == strip(cc_k) and rc == 0 and "False" not in cc_out,
                       "cc header %r, sources equal %s, output %r" % (cc_k.splitlines()[:1], strip(llvm_k) == strip(cc_k), cc_out[-200:]))

    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
