#!/usr/bin/env python3
"""Golden outputs of the examples: kernel sources and fusion decisions, and explain --json.

usage: check_golden.py --fuselab BIN [--update] [names...]

For every example script (resources/models/*.py and resources/models/bench/*.py) this runs,
from the project root,
    BIN kernels --decisions --plan MODEL.py     expected/NAME.kernels.txt
    BIN explain --json MODEL.py          expected/NAME.explain.json
and compares the output byte for byte, except for two facts of the machine rather than of the
compiler: which JIT backend built a kernel and whether the compile cache had it ("; compiled by
clang 15 (cache disk)"), which are masked. A refactor of the pipeline must leave these files as
they are; a change that alters them on purpose regenerates them with --update and says why in its
commit. Exit status: 0 when every output matches, 1 otherwise, 2 on usage errors."""
import argparse, difflib, os, re, sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXPECTED = os.path.join(HERE, 'expected')
sys.path.insert(0, os.path.dirname(HERE))
import harness  # noqa: E402
MODELS = ['resources/models', 'resources/models/bench']

_MACHINE = re.compile(r'; compiled by .*? \(cache [a-z]+\)')


def examples():
    out = []
    for d in MODELS:
        for f in sorted(os.listdir(os.path.join(ROOT, d))):
            if f.endswith('.py'):
                prefix = 'bench_' if d.endswith('bench') else ''
                out.append((prefix + f[:-3], os.path.join(d, f)))
    return out


def run(fuselab, args):
    # the last-level cache fixed: which outputs are streamed depends on it
    env = dict(os.environ, OMP_NUM_THREADS='1', FUSELAB_LLC_BYTES=str(32 << 20))
    runner = harness.shared_fuselab_runner(fuselab)
    p = runner.run(args, cwd=ROOT, env=env, timeout=600)
    if p.timed_out:
        return None, 'still running after 600 s: killed'
    if p.returncode != 0:
        return None, 'exit %d: %s' % (p.returncode, harness.as_text(p.stderr)[-2000:])
    return _MACHINE.sub('; compiled by <jit> (cache <state>)', harness.as_text(p.stdout)), None


def check(fuselab, name, path, update):
    problems = []
    for kind, args in (('kernels.txt', ['kernels', '--decisions', '--plan', path]), ('explain.json', ['explain', '--json', path])):
        got, err = run(fuselab, args)
        if err:
            problems.append('%s %s: %s' % (name, kind, err))
            continue
        want_path = os.path.join(EXPECTED, '%s.%s' % (name, kind))
        if update:
            with open(want_path, 'w') as f:
                f.write(got)
            continue
        if not os.path.exists(want_path):
            problems.append('%s %s: no expected file (run with --update)' % (name, kind))
            continue
        with open(want_path) as f:
            want = f.read()
        if got != want:
            diff = ''.join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), want_path, 'fuselab'))[:60])
            problems.append('%s %s differs:\n%s' % (name, kind, diff))
    return problems


def main():
    ap = argparse.ArgumentParser(description='Golden kernel sources and explain JSON of the examples')
    ap.add_argument('--fuselab', required=True)
    ap.add_argument('--update', action='store_true')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('names', nargs='*')
    a = ap.parse_args()
    todo = [(n, p) for n, p in examples() if not a.names or n in a.names]
    if not todo:
        print('check_golden: no example named %s' % ' '.join(a.names), file=sys.stderr)
        return 2
    os.makedirs(EXPECTED, exist_ok=True)
    with ThreadPoolExecutor(a.jobs) as ex:
        results = list(ex.map(lambda np: check(a.fuselab, np[0], np[1], a.update), todo))
    failed = 0
    for (name, _), probs in zip(todo, results):
        if probs:
            failed += 1
            for p in probs:
                print('FAIL ' + p)
        else:
            print('ok   %s' % name)
    print('golden: %d examples, %s' % (len(todo), '%d failed' % failed if failed else 'all match'))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
