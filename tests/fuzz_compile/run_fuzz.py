#!/usr/bin/python3
"""Randomized differential test: torch.compile'd functions must agree with eager.

Usage (run with Debian's /usr/bin/python3):

    /usr/bin/python3 tests/fuzz_compile/run_fuzz.py --fuselab build/fuselab [--count N] [--seed S]
                     [--jobs J] [--timeout T] [--keep-dir DIR] [--torch | --python PY]

Generates N programs with gen_programs.py (seed S) into a temporary folder and runs each
with `FUSELAB run PROGRAM` (cwd = repository root, OMP_NUM_THREADS=2, T seconds each).
A program passes when it exits 0, prints no `MISMATCH` line and ends with `done`.

--torch runs the programs under /usr/bin/python3 + torch 1.13 instead (through
tests/oracle/run_with_torch.py, whose shim makes torch.compile the identity): a check
of the generator itself, every program must be valid PyTorch and print only `ok`.
--python PY runs them as `PY PROGRAM`, for a PyTorch 2.x whose real torch.compile
(Inductor) is then the compiler under test.

Programs run through tests/harness.py's fork servers (fuselab's start-up and python's
`import torch` paid once per job; FUSELAB_TEST_NO_SERVER=1: fresh processes); --python PY
runs fresh processes.

Output: one `FAIL NAME: why` line per failing program (its MISMATCH lines or the last
lines of stderr), then `N passed, M failed`.  Failing programs are copied, with their
stdout and stderr, into a kept folder (--keep-dir, or a new one under the system temp
folder) whose path is printed; reproduce one with `fuselab run DIR/NAME.py`.
Exit status: 0 if every program passed, 1 if any failed, 2 on usage errors.
"""
import argparse
import concurrent.futures
import os
import shutil
import signal
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import harness  # noqa: E402

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import gen_programs  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
RUN_WITH_TORCH = os.path.join(REPO, "tests", "oracle", "run_with_torch.py")
TORCH_PYTHON = "/usr/bin/python3"


def run_cmd(runner, args, timeout):
    """(returncode or None on timeout, stdout, stderr) of `PROGRAM ARGS...` (runner: a
    harness.Runner); the process group is killed on timeout."""
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = "2"
    env.setdefault("PYTHONHASHSEED", "0")
    r = runner.run(args, cwd=REPO, env=env, timeout=timeout)
    out, err = r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
    return (None if r.timed_out else r.returncode), out, err


def judge(rc, out, err, timeout):
    """Empty list if the program passed, else the reasons."""
    if rc is None:
        return ["timed out after %d s" % timeout]
    problems = []
    if rc < 0 or rc >= 128:
        try:
            sig = signal.Signals(-rc if rc < 0 else rc - 128).name
        except ValueError:
            sig = str(rc)
        problems.append("crashed (%s, exit %d)" % (sig, rc))
    elif rc != 0:
        last = [l for l in err.strip().splitlines() if l.strip()]
        problems.append("error (exit %d): %s" % (rc, last[-1].strip() if last else "no stderr"))
    mismatches = [l for l in out.splitlines() if l.startswith("MISMATCH")]
    problems.extend(mismatches)
    if rc == 0 and not mismatches and out.rstrip("\n").splitlines()[-1:] != ["done"]:
        problems.append("did not print `done`")
    return problems


def tail(text, n=6):
    lines = text.rstrip("\n").splitlines()
    return "".join("    | %s\n" % l for l in lines[-n:])


def _terminate(signum, frame):
    raise SystemExit(1)  # ctest's timeout: still remove the temporary folder


def main():
    signal.signal(signal.SIGTERM, _terminate)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fuselab", help="path to the fuselab binary (not needed with --torch)")
    ap.add_argument("--count", type=int, default=150, help="programs to generate (default 150)")
    ap.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    ap.add_argument("--jobs", type=int, default=2, help="programs run in parallel (default 2)")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per program (default 60)")
    ap.add_argument("--keep-dir", default=None, help="where failing programs are kept")
    ap.add_argument("--torch", action="store_true",
                    help="run under /usr/bin/python3 + torch 1.13 + the oracle's shim (checks the generator)")
    ap.add_argument("--verbose", "-v", action="store_true", help="also print `ok NAME` lines")
    ap.add_argument("--python", default=None,
                    help="run as `PY PROGRAM` (a PyTorch 2.x: its real torch.compile is tested)")
    args = ap.parse_args()

    if args.python:
        runner = harness.Runner([args.python], [])
        runner.use_servers = False
        prefix = []
        label = args.python + " (real torch.compile)"
    elif args.torch:
        if not os.access(TORCH_PYTHON, os.X_OK):
            print("error: %s not found" % TORCH_PYTHON, file=sys.stderr)
            return 2
        runner = harness.torch_runner()
        prefix = []
        label = "python3 + torch (shim)"
    else:
        if not args.fuselab:
            print("error: --fuselab PATH is required (or --torch)", file=sys.stderr)
            return 2
        fuselab = harness.resolve_fuselab(args.fuselab)
        if fuselab is None:
            return 2
        runner = harness.fuselab_runner(fuselab)
        prefix = ["run"]
        label = fuselab
    if args.count < 1:
        print("error: --count must be at least 1", file=sys.stderr)
        return 2

    work = tempfile.mkdtemp(prefix="fuselab-fuzz-")
    try:
        paths = gen_programs.write_programs(work, args.count, args.seed)
        print("running %d programs (seed %d) with %s" % (len(paths), args.seed, label))
        sys.stdout.flush()
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
        try:
            futures = [pool.submit(run_cmd, runner, prefix + [p], args.timeout) for p in paths]
            failed = []
            for path, fut in zip(paths, futures):  # report in a stable order
                rc, out, err = fut.result()
                problems = judge(rc, out, err, args.timeout)
                if not problems:
                    if args.verbose:
                        print("ok %s" % os.path.basename(path))
                        sys.stdout.flush()
                    continue
                name = os.path.basename(path)
                failed.append((path, out, err))
                print("FAIL %s: %s" % (name, "; ".join(problems)))
                if err.strip() and (rc is None or rc != 0):
                    sys.stdout.write(tail(err))
                sys.stdout.flush()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

        passed = len(paths) - len(failed)
        print("%d passed, %d failed" % (passed, len(failed)))
        if not failed:
            return 0
        keep = args.keep_dir or tempfile.mkdtemp(prefix="fuselab-fuzz-failures-")
        os.makedirs(keep, exist_ok=True)
        for path, out, err in failed:
            stem = os.path.splitext(os.path.basename(path))[0]
            shutil.copy(path, os.path.join(keep, stem + ".py"))
            with open(os.path.join(keep, stem + ".stdout"), "w", encoding="utf-8") as fh:
                fh.write(out)
            with open(os.path.join(keep, stem + ".stderr"), "w", encoding="utf-8") as fh:
                fh.write(err)
        print("failing programs kept in %s (reproduce: %s %s)"
              % (keep, " ".join(runner.program + prefix),
                 os.path.join(keep, os.path.basename(failed[0][0]))))
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
