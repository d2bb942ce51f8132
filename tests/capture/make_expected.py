#!/usr/bin/env python3
"""Writes tests/capture/expected/NAME.json for every scenario observed under real PyTorch.

usage: make_expected.py [--out DIR] OBSERVED.json [OBSERVED2.json ...]

Each OBSERVED.json is what observe_torch.py wrote. Several files are merged; when a scenario
appears in more than one, the file named later wins. For each observed scenario NAME.py the
expected file holds:
  graph_count  counters["stats"]["unique_graphs"]
  breaks       sorted distinct [line, reason first line] from the graph_breaks log
               (a break outside the scenario file is recorded as "file.py:line")
  recompiles   [[compile id, [reasons]], ...] from the recompiles_verbose log, one per
               "Recompiling function" block, reasons without the trailing "  # ..." comment
  limit_hits   how many times "torch._dynamo hit config.recompile_limit" was logged
  output       the script's stdout
  torch        the torch version that was observed
Keys an expected file already has that are not generated here ("note", "eager_differs", "why",
"fuselab_differs": a documented deliberate difference, asserted instead of torch's facts) are kept; "pending" and "from" (a stub, or a file run_scenarios.py --update wrote from Fuselab)
are dropped. The log parsing is summarize_observed.py's."""
import argparse, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from summarize_observed import expectation  # noqa: E402

GENERATED = ('graph_count', 'breaks', 'recompiles', 'limit_hits', 'output', 'torch', 'pending',
             'from')
ORDER = ('note', 'eager_differs', 'why', 'torch', 'graph_count', 'breaks', 'recompiles',
         'limit_hits', 'output')


def ordered(d):
    out = {k: d[k] for k in ORDER if k in d}
    out.update((k, v) for k, v in d.items() if k not in out)
    return out


def dump_expected(d, path):
    """One key per line, one break / recompile per line: small diffs when an expectation moves."""
    d = ordered(d)
    parts = []
    for k, v in d.items():
        if isinstance(v, list) and v:
            items = ',\n'.join('  ' + json.dumps(x) for x in v)
            parts.append(' %s: [\n%s\n ]' % (json.dumps(k), items))
        else:
            parts.append(' %s: %s' % (json.dumps(k), json.dumps(v)))
    with open(path, 'w') as f:
        f.write('{\n' + ',\n'.join(parts) + '\n}\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('observed', nargs='+', help="observe_torch.py output file(s)")
    ap.add_argument('--out', default=os.path.join(HERE, 'expected'))
    a = ap.parse_args()

    merged = {}
    for path in a.observed:
        d = json.load(open(path))
        for name, s in d['scenarios'].items():
            merged[name] = (d.get('torch'), s)

    os.makedirs(a.out, exist_ok=True)
    for name, (version, s) in sorted(merged.items()):
        stem = name[:-3] if name.endswith('.py') else name
        path = os.path.join(a.out, stem + '.json')
        old = json.load(open(path)) if os.path.exists(path) else {}
        new = {k: v for k, v in old.items() if k not in GENERATED}
        new.update(expectation(name, s))
        new['torch'] = version
        if s.get('rc'):
            print('warning: %s exited %s under torch' % (name, s['rc']), file=sys.stderr)
        dump_expected(new, path)
        print('%-40s graphs %s, %d break(s), %d recompile(s), %d limit hit(s)' % (
            stem, new['graph_count'], len(new['breaks']), len(new['recompiles']),
            new['limit_hits']))


if __name__ == '__main__':
    main()
