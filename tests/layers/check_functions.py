#!/usr/bin/env python3
"""No function of the project's C++ runs past 150 lines without a reason written beside it.

usage: check_functions.py [--list]

Scans core/, profiler/, viz/ and app/ for function definitions (a line that opens a function body
at namespace or class level, indented at most 4 spaces; its body ends at the closing brace at the
same indentation) and reports each one longer than 150 lines that has no comment starting with
"Long:" in the three lines above it. The scan is textual, not a parser: it sees definitions written
the way this project writes them. --list prints every long function with its length.
Exit status: 0 when every long function says why, 1 otherwise."""
import argparse, glob, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIMIT = 150
DEF = re.compile(r'^( {0,4})(?!(?:if|for|while|switch|else|return|case|do)\b)[A-Za-z_][^;=()]*\b[\w:~]+\([^;]*\)\s*(?:const)?\s*(?:override)?\s*(?:->\s*[\w:<>]+\s*)?\{\s*$')


def long_functions():
    files = []
    for d in ('core', 'profiler', 'viz', 'app'):
        files += glob.glob(os.path.join(ROOT, d, '**', '*.cpp'), recursive=True)
        files += glob.glob(os.path.join(ROOT, d, '**', '*.h'), recursive=True)
    out = []
    for f in sorted(files):
        lines = open(f, encoding='utf-8', errors='replace').read().split('\n')
        i = 0
        while i < len(lines):
            m = DEF.match(lines[i])
            if not m:
                i += 1
                continue
            ind = m.group(1)
            j = i + 1
            while j < len(lines) and not (lines[j].startswith(ind + '}') and not lines[j].startswith(ind + '} else')):
                j += 1
            n = j - i + 1
            if n > LIMIT:
                above = '\n'.join(lines[max(0, i - 3):i])
                out.append((os.path.relpath(f, ROOT), i + 1, n, lines[i].strip(), 'Long:' in above))
            i = j + 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--list', action='store_true')
    a = ap.parse_args()
    fns = long_functions()
    bad = [f for f in fns if not f[4]]
    for path, line, n, head, ok in sorted(fns, key=lambda f: -f[2]):
        if a.list or not ok:
            print('%s %s:%d %d lines: %s' % ('ok  ' if ok else 'FAIL', path, line, n, head[:90]))
    print('functions over %d lines: %d, %d without a reason ("Long:" in a comment above)' % (LIMIT, len(fns), len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
