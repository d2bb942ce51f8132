#!/usr/bin/python3
"""Differential gradient test: the gradients a torch.compile'd training program gives must be
eager's, call after call.

Usage (standard library only; --torch needs /usr/bin/python3 with torch 1.13):

    python3 tests/difftest/grad_difftest.py --fuselab build/app/fuselab [--seed S] [--count N]
            [--start I] [--batch B] [--jobs J] [--timeout T] [--minutes M] [--keep-dir DIR]
            [--no-shrink] [--inject-error]
    python3 tests/difftest/grad_difftest.py --torch --count 300      # checks the generator

Programs come from grad_gen.py (deterministic from (seed, index)): a chain of differentiable ops
over leaf tensors, some with requires_grad=False, some passed transposed. Each runs three times
compiled (the first call traces, the next two replay the cached code) beside eager float32 and
eager float64, each on leaves of its own; every call's loss (a fixed random weighting of the
outputs, or one output's sum) goes backward (`.backward()`, twice with retain_graph=True,
`torch.autograd.grad`, or accumulating into `.grad` over the calls), and the outputs and each
leaf's gradient must match eager's (None where eager's is None). B programs share one script
(one process); a script that crashes or hangs has the programs it did not report rerun alone.
A failing program is shrunk (statements dropped while it still fails) and written to the kept
folder. Output: `FAIL NAME: why` per failing program, then `N passed, M failed, K skipped`
(skipped: Fuselab's eager raised, an API gap). Exit status 0 when nothing failed, 1 otherwise,
2 on usage errors.

--inject-error is the checker's own test: on the second call, the largest of the compiled
gradients is multiplied by 1 + 1e-4, and the cases must then FAIL: exit status 0 only if at
least 97% of those with a nonzero gradient did (the rest: gradients of rounding noise, as of
exp(log_softmax(x)).sum(), which eager gets no better). A tolerance loose enough to let a wrong
gradient through would show here.
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
import grad_gen  # noqa: E402
import batches  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))


def verdicts(programs, rc, out, err):
    """{name: ("ok"|"skip"|"fail"|"unknown", why)} from one script's run."""
    res = {}
    for line in out.splitlines():
        for tag, kind in (("CASE OK ", "ok"), ("CASE SKIP ", "skip"), ("CASE FAIL ", "fail")):
            if line.startswith(tag):
                name = line[len(tag):].split(" ", 1)[0].rstrip(":")
                res[name] = (kind, line)
    return batches.unreported(programs, res, rc, err)


class Runner:
    def __init__(self, program, timeout, work, inject):
        self.program, self.prefix = program
        self.timeout = timeout
        self.work = work
        self.inject = inject
        self.n = 0
        self.no_gradient = set()  # --inject-error: programs that had no nonzero gradient to perturb

    def run(self, programs, tag="batch"):
        self.n += 1
        path = os.path.join(self.work, "%s_%d.py" % (tag, self.n))
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(grad_gen.render(programs, self.inject))
        # no disk cache: generated kernels hardly ever repeat across scripts (as run_difftest.py)
        env = batches.script_env("-")
        r = self.program.run(self.prefix + [path], cwd=REPO, env=env, timeout=self.timeout * max(1, len(programs) // 4 + 1))
        rc = None if r.timed_out else r.returncode
        out, err = r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
        for line in out.splitlines():
            if line.startswith("INJECT NONE "):
                self.no_gradient.add(line.split()[2].rstrip(":"))
        return verdicts(programs, rc, out, err), rc, out, err

    def judge_alone(self, p):
        v, rc, out, err = self.run([p], "alone")
        kind, why = v[p.name]
        return ("fail" if kind == "unknown" else kind), why

    def shrink(self, p, budget=40):
        """A smaller program that still fails: statements dropped (with what reads them)."""
        return batches.drop_statements(p, lambda cand: self.judge_alone(cand)[0] == "fail", budget)[0]


def _terminate(signum, frame):
    raise SystemExit(1)


def main():
    signal.signal(signal.SIGTERM, _terminate)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fuselab")
    ap.add_argument("--torch", action="store_true", help="run under python3 + torch 1.13 + the shim (checks the generator)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first program index")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--batch", type=int, default=20, help="programs per script (default 20)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=60, help="seconds per 4 programs of a script (default 60)")
    ap.add_argument("--minutes", type=float, default=0, help="start no new script after this many minutes")
    ap.add_argument("--keep-dir", default=None, help="where failing programs are written (default: a new temporary folder)")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--inject-error", action="store_true",
                    help="self-test: perturb each compiled gradient record by 1e-4; every case must fail")
    ap.add_argument("--print-script", type=int, metavar="I", default=None,
                    help="print the script of program I (of --seed) and exit")
    args = ap.parse_args()
    if args.print_script is not None:
        p = grad_gen.make_program(args.seed, args.print_script)
        sys.stdout.write(grad_gen.render([p], args.inject_error))
        return 0
    if args.count < 1 or args.batch < 1 or args.jobs < 1:
        print("error: --count, --batch and --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.torch:
        program = (harness.torch_runner(), [])
        what = "python3 + torch 1.13 (tests/oracle/run_with_torch.py)"
    else:
        if not args.fuselab:
            print("error: --fuselab PATH is required (or --torch)", file=sys.stderr)
            return 2
        fl = harness.resolve_fuselab(args.fuselab)
        if fl is None:
            return 2
        program = (harness.fuselab_runner(fl), ["run"])
        what = fl + " run"

    t0 = time.time()
    work = tempfile.mkdtemp(prefix="fuselab-grad-difftest-")
    runner = Runner(program, args.timeout, work, args.inject_error)
    spans = [(i, min(args.batch, args.start + args.count - i)) for i in range(args.start, args.start + args.count, args.batch)]
    print("grad_difftest: %d programs (seed %d, from %d) in %d scripts; running with %s%s%s"
          % (args.count, args.seed, args.start, len(spans), what,
             ", for at most %g minutes" % args.minutes if args.minutes else "",
             "; injecting a 1e-4 gradient error: the cases must fail" if args.inject_error else ""), flush=True)
    deadline = t0 + args.minutes * 60 if args.minutes else None

    def run_job(span):
        b = [p for p in (grad_gen.make_program(args.seed, i) for i in range(span[0], span[0] + span[1])) if p is not None]
        return (b,) + runner.run(b)

    progs = []
    results = {}
    limit_hit = False
    next_index = args.start + args.count
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            pending = []
            nxt = 0
            while nxt < len(spans) or pending:
                while nxt < len(spans) and len(pending) < 2 * args.jobs and not limit_hit:
                    if deadline and time.time() > deadline:
                        limit_hit = True
                        next_index = spans[nxt][0]
                        break
                    pending.append(pool.submit(run_job, spans[nxt]))
                    nxt += 1
                if not pending:
                    break
                b, v, rc, out, err = pending.pop(0).result()
                progs.extend(b)
                for p in b:
                    results[p.name] = v[p.name]
                batches.settle_unknown(b, v, runner.judge_alone, results)
                if not args.inject_error:
                    for p in b:
                        if results[p.name][0] == "fail":
                            print("failed: %s: %s" % (p.name, results[p.name][1]), flush=True)
        skipped = [p for p in progs if results[p.name][0] == "skip"]
        for p in skipped:
            print("SKIP %s: %s" % (p.name, results[p.name][1]))
        tail = " (stopped at the time limit: go on with --start %d)" % next_index if limit_hit else ""
        if args.inject_error:
            # a program whose every gradient is exactly zero (a mask that keeps only constants)
            # has nothing to perturb; the script says so
            zero = [p for p in progs if p.name in runner.no_gradient and results[p.name][0] == "ok"]
            missed = [p for p in progs if results[p.name][0] not in ("fail", "skip") and p not in zero]
            for p in missed:
                print("MISSED %s: the injected error went unreported: %s" % (p.name, results[p.name][1]))
            caught = len(progs) - len(missed) - len(skipped)
            print("grad_difftest --inject-error: %d programs in %.0f s%s" % (len(progs), time.time() - t0, tail))
            print("%d of %d cases caught the injected error, %d skipped, %d with only zero gradients"
                  % (caught - len(zero), len(progs) - len(skipped) - len(zero), len(skipped), len(zero)))
            # a program whose gradient is rounding noise (exp(log_softmax(x)).sum(): the noise is
            # eager's too) cannot tell a 1e-4 change; a few in a hundred may miss, no more
            return 1 if len(missed) > 0.03 * max(1, len(progs) - len(skipped) - len(zero)) else 0
        failed = [p for p in progs if results[p.name][0] == "fail"]
        keep = None
        if failed:
            keep = args.keep_dir or tempfile.mkdtemp(prefix="fuselab-grad-difftest-failures-")
            os.makedirs(keep, exist_ok=True)
        for p in failed:
            print("FAIL %s: %s" % (p.name, results[p.name][1]), flush=True)
            small = p if args.no_shrink else runner.shrink(p)
            path = os.path.join(keep, p.name + ".py")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(grad_gen.render([small]))
            print("    kept (%d of %d statements): %s" % (len(small.stmts), len(p.stmts), path), flush=True)
        print("grad_difftest: %d programs (seed %d, from index %d) in %.0f s%s"
              % (len(progs), args.seed, args.start, time.time() - t0, tail))
        print("%d passed, %d failed, %d skipped" % (len(progs) - len(failed) - len(skipped), len(failed), len(skipped)))
        return 1 if failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
