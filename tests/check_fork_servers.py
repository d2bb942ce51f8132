#!/usr/bin/python3
"""The fork servers must change nothing: every corpus command, run through harness.Runner's servers
and as a fresh process, gives the same exit status, stdout and stderr byte for byte.

Usage: /usr/bin/python3 tests/check_fork_servers.py --fuselab build/app/fuselab [--jobs N]
                                                    [--only torch,run,hostile,explain,kernels]

  torch    /usr/bin/python3 tests/oracle/run_with_torch.py SCRIPT, for the oracle's scripts
  run      fuselab run SCRIPT, for the oracle's scripts and tests/compiler/cases/
  hostile  fuselab run [ARGS] CASE, for every hostile case (crashes, timeouts, huge allocations)
  explain  fuselab explain --json and run --no-compile, for the capture scenarios (reference backend)
  kernels  fuselab kernels, for tests/compiler/cases/ and the anchor suite, each with a cache of its
           own (both ways start from an empty one)

Object addresses (`at 0x7f...`, in some reprs and messages) differ between any two processes, so
they are compared as `0x?`. Run by hand (both ways once: minutes), not by ctest. Prints `ok`/`FAIL` per command and
`N passed, M failed`; exit status 1 when something differs.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

REPO = harness.REPO
sys.path.insert(0, os.path.join(HERE, "hostile"))
import run_hostile  # noqa: E402


def oracle_scripts():
    out = []
    for base in (os.path.join(REPO, "tests", "oracle", "scripts"), os.path.join(REPO, "resources", "models")):
        for root, dirs, files in os.walk(base):
            dirs.sort()
            out += [os.path.relpath(os.path.join(root, f), REPO) for f in sorted(files) if f.endswith(".py")]
    return out


def commands(fuselab, only, tmp):
    """[(name, runner, args, cwd, env, timeout)]"""
    base = dict(os.environ, OMP_NUM_THREADS="2", PYTHONHASHSEED="0")
    torch_env = dict(base, **harness.blas_env(fuselab))
    fl, torch = harness.fuselab_runner(fuselab), harness.torch_runner()
    cmds = []
    if "torch" in only:
        cmds += [("torch " + s, torch, [s], REPO, torch_env, 120) for s in oracle_scripts()]
    compiler_cases = sorted(glob.glob(os.path.join(REPO, "tests", "compiler", "cases", "*.py")))
    if "run" in only:
        cmds += [("run " + s, fl, ["run", s], REPO, base, 120)
                 for s in oracle_scripts() + [os.path.relpath(c, REPO) for c in compiler_cases]]
    if "hostile" in only:
        table = run_hostile.load_expect_file()
        for name in sorted(os.listdir(run_hostile.CASES_DIR)):
            if not os.path.isfile(os.path.join(run_hostile.CASES_DIR, name)):
                continue  # a folder of modules that cases import
            _, args = run_hostile.read_header(os.path.join(run_hostile.CASES_DIR, name))
            if name in table or _ is not None:
                rel = os.path.relpath(os.path.join(run_hostile.CASES_DIR, name), REPO)
                cmds.append(("hostile " + name, fl, ["run"] + args + [rel], REPO, base, 120))
    if "explain" in only:
        scen = os.path.join(HERE, "capture", "scenarios")
        env = dict(base, FUSELAB_BACKEND="reference")
        for s in sorted(n for n in os.listdir(scen) if n.endswith(".py")):
            cmds.append(("explain " + s, fl, ["explain", "--json", s], scen, env, 120))
            cmds.append(("eager " + s, fl, ["run", "--no-compile", s], scen, env, 120))
    if "kernels" in only:
        anchors = sorted(glob.glob(os.path.join(REPO, "resources", "models", "bench", "*.py")))
        for n, s in enumerate(compiler_cases + anchors):
            env = dict(base, FUSELAB_CACHE_DIR=os.path.join(tmp, "k%d" % n))  # a fresh cache per way: see check()
            cmds.append(("kernels " + os.path.relpath(s, REPO), fl, ["kernels", os.path.relpath(s, REPO)], REPO, env, 300))
    return cmds


ADDRESS = re.compile(rb"0x[0-9a-f]{6,16}")


def check(cmd):
    name, runner, args, cwd, env, timeout = cmd
    results = []
    for fresh in (True, False):
        env_way = dict(env)
        if "FUSELAB_CACHE_DIR" in env_way:
            env_way["FUSELAB_CACHE_DIR"] += "-fresh" if fresh else "-server"
        results.append(runner.run(args, cwd=cwd, env=env_way, timeout=timeout, fresh=fresh))
    a, b = results
    for r in results:
        r.stdout, r.stderr = ADDRESS.sub(b"0x?", r.stdout), ADDRESS.sub(b"0x?", r.stderr)
    diffs = []
    if (a.returncode, a.timed_out) != (b.returncode, b.timed_out):
        diffs.append("exit %s%s fresh, %s%s forked" % (a.returncode, " (timed out)" if a.timed_out else "",
                                                        b.returncode, " (timed out)" if b.timed_out else ""))
    for what, x, y in (("stdout", a.stdout, b.stdout), ("stderr", a.stderr, b.stderr)):
        if x != y:
            i = next((k for k in range(min(len(x), len(y))) if x[k] != y[k]), min(len(x), len(y)))
            diffs.append("%s differs at byte %d: fresh %r, forked %r" % (what, i, x[max(0, i - 30):i + 30], y[max(0, i - 30):i + 30]))
    return name, diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fuselab", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="torch,run,hostile,explain,kernels")
    a = ap.parse_args()
    fuselab = harness.resolve_fuselab(a.fuselab)
    if fuselab is None:
        return 2
    checks = harness.Checks()
    with tempfile.TemporaryDirectory() as tmp:
        cmds = commands(fuselab, set(a.only.split(",")), tmp)
        print("%d commands, each run fresh and forked" % len(cmds), flush=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            for name, diffs in pool.map(check, cmds):
                checks.report(name, not diffs, "; ".join(diffs))
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
