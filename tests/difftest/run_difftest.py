#!/usr/bin/python3
"""Differential test: every torch.compile'd program must give eager's values, shapes, dtypes and
layouts, call after call, as its input shapes change.

Usage (Debian's /usr/bin/python3, which has torch 1.13 for the generator):

    /usr/bin/python3 tests/difftest/run_difftest.py --fuselab build/fuselab [--seed S] [--count N]
                     [--start I] [--batch B] [--jobs J] [--timeout T] [--keep-dir DIR] [--no-shrink]
    /usr/bin/python3 tests/difftest/run_difftest.py --torch --count 200      # checks the generator

Programs come from gen.py (deterministic from (seed, index)); B of them go into one model script
(one `fuselab run` process), each defined, compiled and called on its shape variants, compared
with the same function run eagerly in the same process. A script that crashes or hangs is split
and its programs rerun alone, so every failure is pinned on one program. Each failing program is
then shrunk (statements dropped while it still fails) and written, minimal, into the kept folder.
Output: `FAIL NAME: why` per failing program, then `N passed, M failed, K skipped`.
Exit status: 0 when nothing failed, 1 otherwise, 2 on usage errors.
"""
import argparse
import concurrent.futures
import os
import shutil
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import harness  # noqa: E402
import gen  # noqa: E402
import batches  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
RUN_WITH_TORCH = os.path.join(REPO, "tests", "oracle", "run_with_torch.py")
KNOWN = os.path.join(HERE, "known_failures.txt")


def run_script(runner, path, timeout, cache_dir):
    """(exit status or None on timeout, stdout, stderr) of `PROGRAM ... path`; runner is
    (harness.Runner, the arguments before the path)."""
    program, prefix = runner
    env = batches.script_env(cache_dir)
    r = program.run(prefix + [path], cwd=REPO, env=env, timeout=timeout)
    return (None if r.timed_out else r.returncode), r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def verdicts(programs, rc, out, err):
    """{name: ("ok"|"skip"|"fail"|"unknown", why)} from one script's run. A regression file's
    checks report between `begin NAME` and `end NAME`: it fails if any of them does."""
    res = {}
    section = None
    for line in out.splitlines():
        if line.startswith("begin "):
            section = line[len("begin "):]
            continue
        if line.startswith("end ") and section == line[len("end "):]:
            if section not in res:
                res[section] = ("ok", line)
            section = None
            continue
        for tag, kind in (("ok ", "ok"), ("SKIP ", "skip"), ("MISMATCH ", "fail")):
            if line.startswith(tag):
                name = section or line[len(tag):].split(" ", 1)[0].rstrip(":")
                if kind == "skip" and section:
                    kind = "fail"  # a regression case whose eager call raises is itself broken
                if kind != "ok" or not section:
                    if name not in res or kind == "fail":
                        res[name] = (kind, line)
    return batches.unreported(programs, res, rc, err)


class Runner:
    def __init__(self, argv, timeout, work, cache_dir):
        self.argv = argv
        self.timeout = timeout
        self.work = work
        self.cache_dir = cache_dir
        self.n = 0

    def run(self, programs, tag="batch"):
        self.n += 1
        path = os.path.join(self.work, "%s_%d.py" % (tag, self.n))
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(gen.render(programs))
        rc, out, err = run_script(self.argv, path, self.timeout * max(1, len(programs) // 4 + 1), self.cache_dir)
        return verdicts(programs, rc, out, err), rc, out, err

    def judge_alone(self, p):
        """('ok'|'skip'|'fail', why) for one program run alone."""
        v, rc, out, err = self.run([p], "alone")
        kind, why = v[p.name]
        if kind == "unknown":
            kind = "fail"
        return kind, why

    def shrink(self, p, budget=60):
        """A smaller program that still fails (statements dropped, then shape variants)."""
        best, budget = batches.drop_statements(p, lambda cand: self.judge_alone(cand)[0] == "fail", budget)
        for cut in range(1, len(best.variants)):
            if budget <= 0:
                break
            cand = best.with_variants(best.variants[:cut])
            budget -= 1
            if self.judge_alone(cand)[0] == "fail":
                best = cand
                break
        return best


def _terminate(signum, frame):
    raise SystemExit(1)


def main():
    signal.signal(signal.SIGTERM, _terminate)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fuselab")
    ap.add_argument("--torch", action="store_true", help="run under python3 + torch 1.13 + the shim (checks the generator)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first program index")
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--batch", type=int, default=25, help="programs per script (default 25)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=60, help="seconds per 4 programs of a script (default 60)")
    ap.add_argument("--keep-dir", default=None)
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--progress", type=int, default=0, help="print a progress line every N scripts")
    ap.add_argument("--minutes", type=float, default=0, help="start no new script after this many minutes (a long run)")
    ap.add_argument("--regressions", action="store_true",
                    help="also run every case in tests/difftest/regressions/ (with --count 0: only them)")
    args = ap.parse_args()
    if args.count < 0 or args.batch < 1 or args.jobs < 1 or (args.count == 0 and not args.regressions):
        print("error: --count (or --regressions with --count 0), --batch and --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.torch:
        argv = ["/usr/bin/python3", RUN_WITH_TORCH]
        program = (harness.torch_runner(), [])
    else:
        if not args.fuselab:
            print("error: --fuselab PATH is required (or --torch)", file=sys.stderr)
            return 2
        fl = harness.resolve_fuselab(args.fuselab)
        if fl is None:
            return 2
        argv = [fl, "run"]
        program = (harness.fuselab_runner(fl), ["run"])

    t0 = time.time()
    regs = []
    if args.regressions:
        import glob
        regs = [gen.Regression(p) for p in sorted(glob.glob(os.path.join(HERE, "regressions", "*.py")))]
    work = tempfile.mkdtemp(prefix="fuselab-difftest-")
    # No disk cache ("-"): generated programs hardly ever repeat a kernel across scripts, and the
    # code that runs is the in-memory JIT's either way; writing each entry (a link step per
    # compiled unit) was a fifth of the run. The cache's own tests are the jit and compiler suites.
    runner = Runner(program, args.timeout, work, "-")
    # a batch is a range of program indices, generated by the thread that runs it, so a long run
    # starts at once and a time limit (--minutes) leaves no program generated and not run
    spans = [(i, min(args.batch, args.start + args.count - i)) for i in range(args.start, args.start + args.count, args.batch)]
    jobs = [("gen", sp) for sp in spans] + [("regs", regs[i:i + 8]) for i in range(0, len(regs), 8)]
    print("difftest: %d programs (seed %d, from %d) and %d regression cases in %d scripts; running with %s%s"
          % (args.count, args.seed, args.start, len(regs), len(jobs), " ".join(argv),
             ", for at most %g minutes" % args.minutes if args.minutes else ""), flush=True)
    deadline = t0 + args.minutes * 60 if args.minutes else None

    def run_job(job):
        kind, what = job
        if kind == "gen":
            b = [p for p in (gen.make_program(args.seed, i) for i in range(what[0], what[0] + what[1])) if p is not None]
        else:
            b = what
        return (b,) + runner.run(b)

    progs = []
    results = {}
    stopped = limit_hit = False
    covered = 0  # program indices whose scripts ran
    next_index = args.start + args.count  # where a later run goes on after a time limit
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            pending = []
            nxt = 0
            k = 0
            while nxt < len(jobs) or pending:
                while nxt < len(jobs) and len(pending) < 2 * args.jobs and not stopped:
                    if deadline and time.time() > deadline and jobs[nxt][0] == "gen":
                        if not limit_hit:
                            next_index = jobs[nxt][1][0]
                        stopped = limit_hit = True
                        break
                    pending.append(pool.submit(run_job, jobs[nxt]))
                    nxt += 1
                if stopped and nxt < len(jobs) and not pending:
                    # past the time limit: only the regression cases still run
                    nxt = next((j for j in range(nxt, len(jobs)) if jobs[j][0] == "regs"), len(jobs))
                    stopped = False
                    continue
                if not pending:
                    break
                b, v, rc, out, err = pending.pop(0).result()
                k += 1
                covered += sum(1 for p in b if isinstance(p, gen.Program))
                progs.extend(b)
                for p in b:
                    results[p.name] = v[p.name]
                batches.settle_unknown(b, v, runner.judge_alone, results)
                for p in b:
                    if results[p.name][0] == "fail":
                        print("failed: %s: %s" % (p.name, results[p.name][1]), flush=True)
                if args.progress and k % args.progress == 0:
                    nfail = sum(1 for r in results.values() if r[0] == "fail")
                    print("progress: %d programs, %d failed, %.0f s" % (len(progs), nfail, time.time() - t0), flush=True)
        known = {}
        if os.path.exists(KNOWN) and args.seed == 1:
            with open(KNOWN, encoding="utf-8") as fh:
                for line in fh:
                    if line.strip() and not line.startswith("#"):
                        name, _, why = line.strip().partition(" ")
                        known[name] = why.strip()
        for p in progs:
            if p.name in known:
                if results[p.name][0] == "fail":
                    print("KNOWN %s: %s (%s)" % (p.name, results[p.name][1], known[p.name]))
                    results[p.name] = ("known", results[p.name][1])
                elif results[p.name][0] == "ok":
                    print("note: %s passes now: remove it from %s" % (p.name, os.path.relpath(KNOWN, REPO)))
        failed = [p for p in progs if results[p.name][0] == "fail"]
        skipped = sum(1 for p in progs if results[p.name][0] in ("skip", "known"))
        nknown = sum(1 for p in progs if results[p.name][0] == "known")
        keep = None
        if failed:
            keep = args.keep_dir or tempfile.mkdtemp(prefix="fuselab-difftest-failures-")
            os.makedirs(keep, exist_ok=True)
        for p in failed:
            print("FAIL %s: %s" % (p.name, results[p.name][1]), flush=True)
            small = p if args.no_shrink or not p.stmts else runner.shrink(p)
            path = os.path.join(keep, p.name + ".py")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(gen.render([small]))
            print("    kept (%d of %d statements): %s" % (len(small.stmts), len(p.stmts), path), flush=True)
        print("difftest: %d generated programs (seed %d, from index %d) and %d regression cases in %.0f s%s; %d known failures (tests/difftest/known_failures.txt), counted as skipped"
              % (covered, args.seed, args.start, len(progs) - covered, time.time() - t0,
                 " (stopped at the time limit: programs from index %d on did not run; go on with --start %d)" % (next_index, next_index) if limit_hit else "", nknown))
        print("%d passed, %d failed, %d skipped" % (len(progs) - len(failed) - skipped, len(failed), skipped))
        return 1 if failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
