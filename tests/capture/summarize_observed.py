#!/usr/bin/env python3
"""Condenses observe_torch.py's output into the facts a scenario asserts: graph count, graph
breaks (line, reason), recompile reasons, recompile-limit hits, compile ids with graphs.

usage: summarize_observed.py OBSERVED.json [names...]

The parsing lives in functions (strip, parse_breaks, parse_recompiles, count_limit_hits,
expectation) so that make_expected.py turns the same reading of the logs into expected files."""
import json, os, re, sys

LOG_PREFIX = re.compile(r'^[VWIE]\d{4} [\d:.]+ \d+ \S+\] (\[[^\]]*\] )?(\[__\w+\] )?(.*)$')
BREAK_HEAD = re.compile(r'^Graph break (?:\(user stack suppressed due to duplicate graph break\) )?'
                        r'in user code at (.*):(\d+)$')
RECOMPILE_HEAD = re.compile(r'^Recompiling function (\S+) in (.*):(\d+)$')
RECOMPILE_REASON = re.compile(r'^- (\d+/\d+(?:_\d+)?: .*)$')


def strip(line):
    """Split a TORCH_LOGS line into (compile id '[0/0] ', channel '[__graph_breaks] ', text).
    Drops the logging prefix "V1202 15:28:28.783000 765 torch/...py:5127] "."""
    m = LOG_PREFIX.match(line)
    return (m.group(1) or '', m.group(2) or '', m.group(3)) if m else ('', '', line)


def strip_comment(reason):
    """A guard's reason without the trailing '  # user line  # file:line in fn' comment."""
    i = reason.find('  #')
    return (reason[:i] if i >= 0 else reason).rstrip()


def _records(stderr):
    return [strip(l) for l in stderr.splitlines()]


def parse_breaks(stderr):
    """Every graph break logged on the graph_breaks channel, in order, as dicts
    {id, file, line, reason, suppressed}. The reason is the break's first reason line:
    - "Graph Break Reason: Encountered graph break when attempting to trace ...:" and
      "Graph Break Reason: Failed to handle graph break gracefully. ...:" (a break in a loop):
      the first non-empty line after it (the gb_type, e.g. "Failed to trace builtin operator");
    - otherwise the text after "Graph Break Reason: " (e.g. "Data-dependent branching").
    A duplicate ("user stack suppressed") break with no reason of its own takes the reason of
    the nearest earlier break at the same place; with none it is dropped."""
    recs = _records(stderr)
    out = []
    for i, (cid, chan, text) in enumerate(recs):
        if chan != '[__graph_breaks] ':
            continue
        m = BREAK_HEAD.match(text)
        if not m:
            continue
        suppressed = text.startswith('Graph break (user stack suppressed')
        reason = None
        for j in range(i + 1, min(i + 4, len(recs))):
            c2, ch2, t2 = recs[j]
            if ch2 != chan or BREAK_HEAD.match(t2):
                break
            if t2.startswith('Graph Break Reason: '):
                r = t2[len('Graph Break Reason: '):].strip()
                if r.endswith(':') and (r.startswith('Encountered graph break')
                                        or r.startswith('Failed to handle graph break')):
                    for k in range(j + 1, min(j + 12, len(recs))):
                        c3, ch3, t3 = recs[k]
                        if ch3 != chan or BREAK_HEAD.match(t3):
                            break
                        if t3.strip():
                            reason = t3.strip()
                            break
                else:
                    reason = r
                break
        if reason is None:
            prev = [b for b in out if b['file'] == m.group(1) and b['line'] == int(m.group(2))]
            if not prev:
                continue
            reason = prev[-1]['reason']
        out.append(dict(id=cid.strip()[1:-1], file=m.group(1), line=int(m.group(2)),
                        reason=reason, suppressed=suppressed))
    return out


def parse_recompiles(stderr):
    """One dict {id, function, file, line, reasons} per "Recompiling function" block, reasons
    being the "- 0/0: ..." lines in order without "- " and without the trailing comment.
    Uses the recompiles_verbose channel when present, else the recompiles channel."""
    recs = _records(stderr)
    chans = set(ch for _, ch, _ in recs)
    chan = '[__recompiles_verbose] ' if '[__recompiles_verbose] ' in chans else '[__recompiles] '
    out, cur = [], None
    for cid, ch, text in recs:
        if ch != chan:
            continue
        m = RECOMPILE_HEAD.match(text.strip())
        if m:
            cur = dict(id=cid.strip()[1:-1], function=m.group(1), file=m.group(2),
                       line=int(m.group(3)), reasons=[])
            out.append(cur)
            continue
        r = RECOMPILE_REASON.match(text.strip())
        if r and cur is not None and cid.strip()[1:-1] == cur['id']:
            cur['reasons'].append(strip_comment(r.group(1)))
    return out


def count_limit_hits(stderr):
    """Number of "torch._dynamo hit config.recompile_limit" warnings (torch 2.11 prints each hit
    once, as one multi-line warning whose first line carries this text)."""
    n = 0
    for cid, chan, text in _records(stderr):
        if 'hit config.recompile_limit' in text or 'hit config.cache_size_limit' in text:
            n += 1
    return n


def expectation(name, s):
    """The expected-file facts for one observed scenario (see make_expected.py)."""
    base = os.path.basename(name)
    breaks = set()
    for b in parse_breaks(s['stderr']):
        line = b['line'] if os.path.basename(b['file']) == base else \
            '%s:%d' % (os.path.basename(b['file']), b['line'])
        breaks.add((line, b['reason']))
    return dict(graph_count=s.get('unique_graphs'),
                breaks=[list(b) for b in sorted(breaks, key=lambda b: (str(type(b[0])), b[0], b[1]))],
                recompiles=[[r['id'], r['reasons']] for r in parse_recompiles(s['stderr'])],
                limit_hits=count_limit_hits(s['stderr']),
                output=s['stdout'])


def summarize(s):
    lines = s['stderr'].splitlines()
    graphs, limits = [], []
    for l in lines:
        cid, chan, text = strip(l)
        if chan == '[__graph_code] ' and text == 'TRACED GRAPH':
            graphs.append(cid.strip())
        if 'torch._dynamo hit' in text or 'Skipping frame' in text:
            limits.append(text.strip())
    breaks = ['[%s] %d: %s%s' % (b['id'], b['line'], b['reason'],
                                 ' (suppressed duplicate)' if b['suppressed'] else '')
              for b in parse_breaks(s['stderr'])]
    recompiles = ['[%s] %s' % (r['id'], reason) for r in parse_recompiles(s['stderr'])
                  for reason in r['reasons']]
    return dict(graphs=s.get('unique_graphs'), graph_ids=graphs, breaks=breaks,
                recompiles=recompiles, limits=limits, rc=s['rc'], stdout=s['stdout'])


def main():
    d = json.load(open(sys.argv[1]))
    for n, s in sorted(d['scenarios'].items()):
        if len(sys.argv) > 2 and n not in sys.argv[2:] and n[:-3] not in sys.argv[2:]:
            continue
        r = summarize(s)
        print('==', n, 'rc', r['rc'], 'graphs', r['graphs'], r['graph_ids'])
        for b in r['breaks']: print('   break', b)
        for b in r['recompiles']: print('   recompile', b)
        for b in r['limits']: print('   limit', b)
        print('   out', r['stdout'].replace('\n', ' | ')[:200])


if __name__ == '__main__':
    main()
