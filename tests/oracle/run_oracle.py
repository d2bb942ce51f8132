#!/usr/bin/python3
"""Oracle harness: Fuselab must print exactly what PyTorch prints.

Usage (run with Debian's /usr/bin/python3, which has torch 1.13):

    /usr/bin/python3 tests/oracle/run_oracle.py --fuselab build/fuselab [--jobs N] [--filter SUBSTR]

For every .py under tests/oracle/scripts/ and resources/models/ (recursively), and the main.py of
every project under tests/oracle/projects/ (a folder of modules and packages it imports), it runs

    FUSELAB run SCRIPT
    /usr/bin/python3 tests/oracle/run_with_torch.py SCRIPT

both with cwd = repository root, OMP_NUM_THREADS=2 and a 120 s timeout, and OpenBLAS on the
kernels `fuselab --version` names (OPENBLAS_CORETYPE: a matmul on other kernels differs in its
last bits), and compares stdout byte for byte and the exit status (0 vs 0, nonzero vs nonzero).
Both run through fork servers (tests/harness.py's Runner: fuselab's start-up and python's
`import torch` paid once per job); FUSELAB_TEST_NO_SERVER=1 runs fresh processes instead.

Output: one line per script, `ok NAME`, `FAIL NAME: why` followed by a unified
diff (at most 30 lines), or `known NAME: reason` for scripts listed in
tests/oracle/exceptions.txt (lines `scriptname: reason`; `#` starts a comment).
A known script still runs and shows its diff but does not count as failed.
The last line is exactly `N passed, M failed`.  Exit status: 0 if nothing
failed, 1 if something failed, 2 on usage errors (e.g. missing binary).
"""
import concurrent.futures
import difflib
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
import threading

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORACLE_DIR = os.path.join(REPO, "tests", "oracle")
SCRIPT_DIRS = [os.path.join(ORACLE_DIR, "scripts"), os.path.join(REPO, "resources", "models")]
PROJECTS_DIR = os.path.join(ORACLE_DIR, "projects")
RUN_WITH_TORCH = os.path.join(ORACLE_DIR, "run_with_torch.py")
EXCEPTIONS_FILE = os.path.join(ORACLE_DIR, "exceptions.txt")
TORCH_PYTHON = "/usr/bin/python3"
TIMEOUT_S = 120
MAX_DIFF_LINES = 30


class Result:
    __slots__ = ("returncode", "stdout", "stderr", "timed_out", "error")

    def __init__(self, returncode=None, stdout=b"", stderr=b"", timed_out=False, error=None):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr
        self.timed_out = timed_out
        self.error = error


BLAS_ENV = {}  # harness.blas_env(fuselab), for both runs of every script


def run_cmd(runner, args, timeout):
    """`PROGRAM ARGS...` through runner (a harness.Runner), in a session of its own; its process
    group is killed on timeout."""
    env = dict(os.environ, **BLAS_ENV)
    env["OMP_NUM_THREADS"] = "2"
    env.setdefault("PYTHONHASHSEED", "0")
    try:
        r = runner.run(args, cwd=REPO, env=env, timeout=timeout)
    except OSError as exc:
        return Result(error="cannot start %s: %s" % (runner.program[0], exc))
    return Result(r.returncode, r.stdout, r.stderr, timed_out=r.timed_out)


def find_scripts(filter_substr):
    scripts = []
    # a project (tests/oracle/projects/NAME/) is its main.py; the modules beside it are imported
    if os.path.isdir(PROJECTS_DIR):
        for name in sorted(os.listdir(PROJECTS_DIR)):
            main = os.path.join(PROJECTS_DIR, name, "main.py")
            rel = os.path.relpath(main, REPO)
            if os.path.isfile(main) and (filter_substr is None or filter_substr in rel):
                scripts.append(rel)
    for base in SCRIPT_DIRS:
        if not os.path.isdir(base):
            continue
        for root, dirs, files in os.walk(base):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(".py"):
                    rel = os.path.relpath(os.path.join(root, name), REPO)
                    if filter_substr is None or filter_substr in rel:
                        scripts.append(rel)
    return scripts


def load_exceptions():
    known = {}
    if not os.path.isfile(EXCEPTIONS_FILE):
        return known
    with open(EXCEPTIONS_FILE, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.strip()
            if not line or line.startswith("#") or ":" not in line:
                continue
            name, reason = line.split(":", 1)
            known[name.strip()] = reason.strip()
    return known


def lookup_known(known, rel):
    """Match an exceptions.txt entry by repo-relative path, file name or stem."""
    base = os.path.basename(rel)
    for key in (rel, base, os.path.splitext(base)[0]):
        if key in known:
            return known[key]
    return None


def describe_status(res):
    if res.error:
        return res.error
    if res.timed_out:
        return "timed out after %d s" % TIMEOUT_S
    if res.returncode < 0:
        try:
            return "killed by signal %s" % signal.Signals(-res.returncode).name
        except ValueError:
            return "killed by signal %d" % -res.returncode
    return "exit %d" % res.returncode


def stdout_diff(expected, actual):
    exp = expected.decode("utf-8", "replace").splitlines(keepends=True)
    act = actual.decode("utf-8", "replace").splitlines(keepends=True)
    lines = []
    for line in difflib.unified_diff(exp, act, "pytorch", "fuselab", n=2):
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        lines.extend(line.splitlines(keepends=True))
    if not lines and expected != actual:
        # same lines once decoded: show the raw byte difference
        i = next((k for k in range(min(len(expected), len(actual))) if expected[k] != actual[k]),
                 min(len(expected), len(actual)))
        lines = ["--- pytorch\n", "+++ fuselab\n",
                 "@@ first differing byte at offset %d @@\n" % i,
                 "-%r\n" % expected[max(0, i - 20):i + 20],
                 "+%r\n" % actual[max(0, i - 20):i + 20]]
    if len(lines) > MAX_DIFF_LINES:
        lines = lines[:MAX_DIFF_LINES] + ["... (diff truncated)\n"]
    return "".join("    " + l for l in lines)


def tail(data, n=8):
    text = data.decode("utf-8", "replace").rstrip("\n").splitlines()
    return "".join("    | %s\n" % l for l in text[-n:])


def check_script(rel, fuselab, torch):
    ref = run_cmd(torch, [rel], TIMEOUT_S)
    got = run_cmd(fuselab, ["run", rel], TIMEOUT_S)
    problems = []
    if ref.error or ref.timed_out:
        problems.append("oracle (PyTorch) run failed: " + describe_status(ref))
    if got.error or got.timed_out or got.returncode < 0:
        problems.append("fuselab " + describe_status(got))
    elif not ref.error and not ref.timed_out:
        if (ref.returncode == 0) != (got.returncode == 0):
            problems.append("exit status differs: pytorch %s, fuselab %s"
                            % (describe_status(ref), describe_status(got)))
    same_stdout = ref.stdout == got.stdout
    if not same_stdout:
        problems.append("stdout differs")
    detail = ""
    if not same_stdout:
        detail += stdout_diff(ref.stdout, got.stdout)
    if problems and got.stderr and (got.returncode != 0 or got.timed_out or got.error):
        detail += "    fuselab stderr (last lines):\n" + tail(got.stderr)
    if problems and ref.stderr and ref.returncode != 0 and (ref.returncode == 0) != (got.returncode == 0):
        detail += "    pytorch stderr (last lines):\n" + tail(ref.stderr)
    return problems, detail


def main():
    args = harness.parse_args(__doc__, "scripts")
    fuselab = harness.resolve_fuselab(args.fuselab)
    if fuselab is None:
        return 2
    if not os.access(TORCH_PYTHON, os.X_OK):
        print("error: %s not found (the oracle needs Debian's python3 with torch 1.13)"
              % TORCH_PYTHON, file=sys.stderr)
        return 2

    BLAS_ENV.update(harness.blas_env(fuselab))
    scripts = find_scripts(args.filter)
    if not scripts:
        print("error: no scripts matched%s" % (" filter %r" % args.filter if args.filter else ""),
              file=sys.stderr)
        return 2
    known = load_exceptions()
    passed = failed = 0
    lock = threading.Lock()

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        fuselab_runner, torch_runner = harness.fuselab_runner(fuselab), harness.torch_runner()
        futures = [pool.submit(check_script, rel, fuselab_runner, torch_runner) for rel in scripts]
        for rel, fut in zip(scripts, futures):  # report in a stable order
            try:
                problems, detail = fut.result()
            except Exception as exc:  # harness bug: report, don't die
                problems, detail = ["harness error: %r" % exc], ""
            name = os.path.relpath(os.path.join(REPO, rel), REPO)
            reason = lookup_known(known, rel)
            with lock:
                if not problems:
                    passed += 1
                    note = "  (listed in exceptions.txt but passes now)" if reason else ""
                    print("ok %s%s" % (name, note))
                elif reason is not None:
                    passed += 1
                    print("known %s: %s" % (name, reason))
                    print("    (%s)" % "; ".join(problems))
                    if detail:
                        sys.stdout.write(detail)
                else:
                    failed += 1
                    print("FAIL %s: %s" % (name, "; ".join(problems)))
                    if detail:
                        sys.stdout.write(detail)
                sys.stdout.flush()

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
