#!/usr/bin/python3
"""Training through torch.compile must train as eager does.

Usage: python3 tests/training/check_training.py --fuselab build/app/fuselab [--jobs N] [--filter SUBSTR]

Two kinds of check (standard library only):
- loss lines: each training script runs twice, `fuselab run SCRIPT` and `fuselab run --no-compile
  SCRIPT`; the lines it prints its losses on (4 decimals) must be the same, line for line. Five
  steps of SGD or Adam carry any gradient error forward into the next loss.
- grad_equal_*.py here: one model compiled, a deep copy eager, the same step on both; each
  parameter's gradient and value after the step must be eager's within 1e-5 of its size (the
  script asserts that; exit status 0 required). Its `param NAME ... rel Y` lines are shown when
  it fails. For the dropout and views scripts, `explain --json` must also report every entry with
  grad running its compiled backward (never the eager recompute, which gives eager's gradients too).
Output: `ok NAME` or `FAIL NAME: why` per check, then `N passed, M failed`; exit status 1 when
something failed.
"""
import concurrent.futures
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(HERE))
import harness  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
LOSS = re.compile(r"loss")
EVERY_LINE = re.compile(r"")

# (script, the lines that carry its losses): the capture scenarios print `STEP LOSS` only
TRAINING = [
    ("resources/models/mlp_training.py", LOSS),
    ("resources/models/small_cnn.py", LOSS),
    ("resources/models/bench/train_mlp_b8192.py", LOSS),
    ("resources/models/bench/train_transformer_block.py", LOSS),
    ("resources/models/bench/train_small_cnn.py", LOSS),
    ("tests/capture/scenarios/training_loop.py", EVERY_LINE),
    ("tests/capture/scenarios/combo_adam_training.py", EVERY_LINE),
]
GRAD_EQUAL = ["tests/training/grad_equal_mlp.py", "tests/training/grad_equal_small_cnn.py",
              "tests/training/grad_equal_transformer_block.py", "tests/training/grad_equal_dropout.py",
              "tests/training/grad_equal_views.py"]
# gradients equal to eager's prove nothing about which backward ran (the eager recompute gives
# them too): these scripts' entries with grad must report the compiled backward, run, never op by op
COMPILED_BACKWARD = ["tests/training/grad_equal_dropout.py", "tests/training/grad_equal_views.py"]
TIMEOUT_S = 300


def main():
    args = harness.parse_args(__doc__, "scripts")
    fuselab = harness.resolve_fuselab(args.fuselab)
    if fuselab is None:
        return 2
    runner = harness.fuselab_runner(fuselab)
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = "1"  # two jobs on two cores; the loss lines do not depend on it
    env["PYTHONHASHSEED"] = "0"

    def run(argv):
        r = runner.run(argv, cwd=REPO, env=env, timeout=TIMEOUT_S)
        out = r.stdout.decode("utf-8", "replace")
        err = r.stderr.decode("utf-8", "replace")
        if r.timed_out:
            return None, out, "timed out after %d s" % TIMEOUT_S
        if r.returncode != 0:
            tail = [l for l in err.strip().splitlines() if l.strip()]
            return r.returncode, out, "exit %d: %s" % (r.returncode, tail[-1] if tail else "no output")
        return 0, out, ""

    def loss_check(item):
        script, pattern = item
        results = {}
        for mode, argv in (("compiled", ["run", script]), ("--no-compile", ["run", "--no-compile", script])):
            rc, out, why = run(argv)
            if rc != 0:
                return script, False, "%s run: %s" % (mode, why)
            results[mode] = [l for l in out.splitlines() if pattern.search(l)]
        got, want = results["compiled"], results["--no-compile"]
        if not want:
            return script, False, "no loss lines in its output"
        if got != want:
            diff = ["line %d: compiled %r, eager %r" % (i + 1, g, w)
                    for i, (g, w) in enumerate(zip(got, want)) if g != w]
            if len(got) != len(want):
                diff.append("%d lines compiled, %d eager" % (len(got), len(want)))
            return script, False, "loss lines differ: " + "; ".join(diff[:6])
        return script, True, "%d loss lines" % len(want)

    def grad_check(script):
        rc, out, why = run(["run", script])
        params = [l for l in out.splitlines() if l.startswith("param ")]
        if rc != 0:
            worst = [l for l in params if not l.endswith(" rel 0")]
            return script, False, why + ("\n    " + "\n    ".join(worst[-12:]) if worst else "")
        if not params:
            return script, False, "printed no `param` lines"
        return script, True, "%d parameter checks" % len(params)

    def compiled_backward_check(script):
        rc, out, why = run(["explain", "--json", script])
        if rc != 0:
            return script + " explain", False, why
        try:
            frames = json.loads(out)["frames"]
        except (ValueError, KeyError) as e:
            return script + " explain", False, "explain --json: %s" % e
        entries = [(f.get("id"), f.get("backward")) for f in frames if f.get("backward")]
        # (an entry may run no backward(): a double backward reruns the graph eagerly)
        wrong = ["%s: %s" % (i, b.get("reason") or "%d backward() calls ran op by op" % b.get("backward_fallbacks", 0))
                 for i, b in entries if not b.get("compiled") or b.get("backward_fallbacks")]
        calls = sum(b.get("backward_calls", 0) for _, b in entries)
        if not entries or wrong or not calls:
            return script + " explain", False, "not the compiled backward: " + ("; ".join(wrong) or "no backward() ran it")
        return script + " explain", True, "%d entries with a compiled backward, %d backward() calls" % (len(entries), calls)

    checks = harness.Checks()
    jobs = ([(loss_check, t) for t in TRAINING] + [(grad_check, s) for s in GRAD_EQUAL] +
            [(compiled_backward_check, s) for s in COMPILED_BACKWARD])
    if args.filter:
        jobs = [(f, t) for f, t in jobs if args.filter in (t[0] if isinstance(t, tuple) else t)]
    # the longest (the full-size transformer block, twice) first, so the others run beside it
    jobs.sort(key=lambda j: "transformer" not in (j[1][0] if isinstance(j[1], tuple) else j[1]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for name, ok, why in pool.map(lambda j: j[0](j[1]), jobs):
            checks.report("%s (%s)" % (name, why) if ok else name, ok, why)
    return checks.summary()


if __name__ == "__main__":
    sys.exit(main())
