#!/usr/bin/python3
"""Hostile-input harness: `fuselab run` must fail cleanly, never crash or leak internals.

Usage:

    python3 tests/hostile/run_hostile.py --fuselab build/fuselab [--jobs N] [--filter SUBSTR]

Every file in tests/hostile/cases/ is run as

    FUSELAB run [ARGS] tests/hostile/cases/NAME

(cwd = repository root, through tests/harness.py's fork servers unless
FUSELAB_TEST_NO_SERVER=1; a case still running after 120 s is killed and
fails as hung).  Expectations come from the
file's first line, or from tests/hostile/expect.txt (`NAME: ...`, which wins)
for files that cannot carry a header (empty or binary files):

    # expect: exit=N stderr="substring" [more keys]
    # args: --timeout 2            (optional second line: arguments before the file)
    # script-args: --epochs 1      (or: the script's own arguments, after `--`)

Keys (values may be "quoted"; inside quotes \\" \\\\ \\n \\t are escapes, other
backslashes are kept, so regexes like \\w or \\( can be written directly):
    exit=N | exit=N,M | exit=any     accepted exit codes
    stderr="s"      stderr must contain s (repeatable: all must be present)
    stderr_re="r"   stderr must match the Python regex r (re.search; repeatable)
    stdout="s"      stdout must contain s (repeatable)
    nostdout=1      stdout must be empty
    nofile="path"   path must not exist after the run (removed before it)

Every case must also: not hang; not die from a signal (negative
return code, or 132-137/139 unless listed in exit=); and never show
interpreter internals on stdout/stderr (c10::, at::, std::, "terminate
called", "Exception raised from", "Segmentation fault", "core dumped",
".cpp:", "AddressSanitizer").

Prints `ok NAME` or `FAIL NAME: reasons` per case and, last, exactly
`N passed, M failed`.  Exit status 0 / 1 (failures) / 2 (usage error).
"""
import concurrent.futures
import os
import re
import shlex
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOSTILE_DIR = os.path.join(REPO, "tests", "hostile")
CASES_DIR = os.path.join(HOSTILE_DIR, "cases")
EXPECT_FILE = os.path.join(HOSTILE_DIR, "expect.txt")
# Not a bound on speed: a guard against a case that never ends (the endless loops run under
# `--timeout 2`, which fuselab itself enforces), generous for a loaded machine.
# FUSELAB_HOSTILE_WALL_S: a longer guard for slow builds (tools/sanitize.sh: ASan runs 2-4x slower)
HANG_LIMIT_S = float(os.environ.get("FUSELAB_HOSTILE_WALL_S", "120"))
FORBIDDEN_OUTPUT = ["c10::", "at::", "std::", "terminate called", "Exception raised from",
                    "Segmentation fault", "core dumped", ".cpp:", "AddressSanitizer"]
SIGNAL_EXIT_CODES = {132, 133, 134, 135, 136, 137, 139}  # 128 + ILL/TRAP/ABRT/BUS/FPE/KILL/SEGV

_TOKEN = re.compile(r'\s*([A-Za-z_]+)=("(?:[^"\\]|\\.)*"|\S+)')


class SpecError(Exception):
    pass


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", '"': '"', "\\": "\\"}


def _unquote(v):
    """Strip quotes; inside them \\" \\\\ \\n \\t \\r \\0 are escapes; any other \\X stays as is."""
    if len(v) >= 2 and v[0] == '"' and v[-1] == '"':
        return re.sub(r'\\(.)', lambda m: _ESCAPES.get(m.group(1), m.group(0)), v[1:-1])
    return v


def parse_spec(text):
    """Parse 'exit=1 stderr="x" ...' into a dict of lists."""
    spec = {"exit": None, "stderr": [], "stderr_re": [], "stdout": [], "nostdout": False,
            "nofile": [], "args": []}
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise SpecError("cannot parse expectation near %r" % text[pos:pos + 30])
        key, val = m.group(1), _unquote(m.group(2))
        pos = m.end()
        if key == "exit":
            if val == "any":
                spec["exit"] = "any"
            else:
                try:
                    spec["exit"] = {int(x) for x in val.split(",")}
                except ValueError:
                    raise SpecError("bad exit=%s" % val)
        elif key in ("stderr", "stdout", "nofile"):
            spec[key].append(val)
        elif key == "stderr_re":
            try:
                spec["stderr_re"].append(re.compile(val))
            except re.error as exc:
                raise SpecError("bad stderr_re %r: %s" % (val, exc))
        elif key == "nostdout":
            spec["nostdout"] = val not in ("0", "false", "no")
        else:
            raise SpecError("unknown key %r" % key)
    if spec["exit"] is None:
        raise SpecError("expectation has no exit=")
    return spec


def read_header(path):
    """Return (spec_text or None, args list) from the first two lines of a case."""
    with open(path, "rb") as fh:
        head = fh.read(4096)
    lines = head.split(b"\n")[:2]
    spec_text, args = None, []
    for i, raw in enumerate(lines):
        line = raw.decode("utf-8", "replace").lstrip("\ufeff").rstrip("\r")
        if i == 0 and line.startswith("# expect:"):
            spec_text = line[len("# expect:"):]
        elif i == 1 and spec_text is not None and line.startswith("# args:"):
            args = shlex.split(line[len("# args:"):])
        elif i == 1 and spec_text is not None and line.startswith("# script-args:"):
            args = ["@SCRIPT@", "--"] + shlex.split(line[len("# script-args:"):])
    return spec_text, args


def load_expect_file():
    table = {}
    if not os.path.isfile(EXPECT_FILE):
        return table
    with open(EXPECT_FILE, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.strip()
            if not line or line.startswith("#") or ":" not in line:
                continue
            name, rest = line.split(":", 1)
            table[name.strip()] = rest
    return table


def run_case(runner, rel, args):
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = "2"
    try:
        argv = ["run"] + [rel if a == "@SCRIPT@" else a for a in args] if "@SCRIPT@" in args else ["run"] + args + [rel]
        r = runner.run(argv, cwd=REPO, env=env, timeout=HANG_LIMIT_S)
    except OSError as exc:
        return None, b"", str(exc).encode(), False
    return r.returncode, r.stdout, r.stderr, r.timed_out


def describe_rc(rc):
    if rc is None:
        return "could not start"
    if rc < 0:
        try:
            return "killed by %s" % signal.Signals(-rc).name
        except ValueError:
            return "killed by signal %d" % -rc
    return "exit %d" % rc


def check_case(runner, name, spec_text, args):
    path = os.path.join(CASES_DIR, name)
    rel = os.path.relpath(path, REPO)
    try:
        spec = parse_spec(spec_text)
    except SpecError as exc:
        return ["bad expectation: %s" % exc], b""
    spec_args = args
    for p in spec["nofile"]:
        if os.path.lexists(p):
            try:
                os.remove(p)
            except OSError:
                pass
    rc, out, err, timed_out = run_case(runner, rel, spec_args)
    problems = []
    if rc is None:
        return ["could not start fuselab: %s" % err.decode("utf-8", "replace")], b""
    expected = spec["exit"]
    if timed_out:
        problems.append("hung: no result within %.0f s (killed)" % HANG_LIMIT_S)
    if not timed_out:
        if rc < 0:
            problems.append("crashed: %s" % describe_rc(rc))
        elif rc in SIGNAL_EXIT_CODES and (expected == "any" or rc not in expected):
            problems.append("exit %d looks like a crash (signal %d)" % (rc, rc - 128))
        elif expected != "any" and rc not in expected:
            problems.append("exit %d, expected %s" % (rc, ",".join(str(e) for e in sorted(expected))))
    out_s = out.decode("utf-8", "replace")
    err_s = err.decode("utf-8", "replace")
    for s in spec["stderr"]:
        if s not in err_s:
            problems.append("stderr lacks %r" % s)
    for r in spec["stderr_re"]:
        if not r.search(err_s):
            problems.append("stderr does not match /%s/" % r.pattern)
    for s in spec["stdout"]:
        if s not in out_s:
            problems.append("stdout lacks %r" % s)
    if spec["nostdout"] and out:
        problems.append("stdout not empty (%d bytes)" % len(out))
    for p in spec["nofile"]:
        if os.path.lexists(p):
            problems.append("file %s was created" % p)
            try:
                os.remove(p)
            except OSError:
                pass
    for bad in FORBIDDEN_OUTPUT:
        where = [w for w, text in (("stderr", err_s), ("stdout", out_s)) if bad in text]
        if where:
            problems.append("%s shows internals: %r" % ("/".join(where), bad))
    return problems, err


def tail(data, n=6, width=200):
    lines = data.decode("utf-8", "replace").rstrip("\n").splitlines()[-n:]
    return "".join("    | %s\n" % (l if len(l) <= width else l[:width] + "...") for l in lines)


def main():
    args = harness.parse_args(__doc__, "cases")
    fuselab = harness.resolve_fuselab(args.fuselab)
    if fuselab is None:
        return 2
    if not os.path.isdir(CASES_DIR):
        print("error: no cases directory %s" % CASES_DIR, file=sys.stderr)
        return 2

    table = load_expect_file()
    names = sorted(n for n in os.listdir(CASES_DIR) if os.path.isfile(os.path.join(CASES_DIR, n)))
    if args.filter:
        names = [n for n in names if args.filter in n]
    if not names:
        print("error: no cases matched", file=sys.stderr)
        return 2

    jobs = []
    for name in names:
        spec_text, case_args = read_header(os.path.join(CASES_DIR, name))
        if name in table:
            spec_text = table[name]
        jobs.append((name, spec_text, case_args))

    passed = failed = 0
    runner = harness.fuselab_runner(fuselab)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = []
        for name, spec_text, case_args in jobs:
            if spec_text is None:
                futs.append(None)
            else:
                futs.append(pool.submit(check_case, runner, name, spec_text, case_args))
        for (name, spec_text, _), fut in zip(jobs, futs):
            if fut is None:
                problems, err = ["no '# expect:' header and no entry in expect.txt"], b""
            else:
                try:
                    problems, err = fut.result()
                except Exception as exc:  # harness bug: report, keep going
                    problems, err = ["harness error: %r" % exc], b""
            if problems:
                failed += 1
                print("FAIL %s: %s" % (name, "; ".join(problems)))
                if err:
                    sys.stdout.write("    stderr (last lines):\n" + tail(err))
            else:
                passed += 1
                print("ok %s" % name)
            sys.stdout.flush()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
