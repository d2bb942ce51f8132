#!/usr/bin/env python3
"""Validates a Trace Event JSON file as `fuselab profile -o` writes it (stdlib only).

Checks the Trace Event format (the subset Perfetto and chrome://tracing read): a top-level object
with a `traceEvents` list; every event has ph in {X,i,I,C,M,B,E}, a name, pid, tid and a numeric
ts >= 0; X has dur >= 0; i/I has scope s in {g,p,t}; C has args of numbers; M process_name /
thread_name carry args.name. Then Fuselab's own promises: a thread named "compile <id>" per compile
id with one compile span and its phase spans (a trace phase among them), each phase inside the
compile span and after the one before it (none overlap); graph-break and recompile instants carry
their reasons in args. How much of the compile span the phases cover is a measurement (facts'
phase_sum_us and span_us), printed, never judged: on a loaded machine the gaps between phases grow.

Usage: validate_trace.py TRACE.json                      exit 0 when valid, 1 with the errors
       validate_trace.py --self-test                     broken traces must be rejected
"""
import json
import sys

PHASES = {"X", "i", "I", "C", "M", "B", "E"}


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# Phases are written in whole microseconds (or rounded to them): the slack for comparing their ends.
SLACK_US = 1
# The order in which a compile id's phases happen (capture.cpp's CompileRecord, runtime.cpp's compile
# steps and jitSteps); a phase of another name may come anywhere.
PHASE_ORDER = ["trace", "lower", "fuse", "codegen", "cache lookup (memory)", "cache lookup", "load (disk cache)",
               "jit plugin load", "jit (cc)", "jit frontend", "jit optimisation", "jit machine code", "load",
               "cache write", "symbol lookup", "guard build", "first run"]


def validate(trace):
    """Returns (errors, facts): a list of messages and a dict of what was found."""
    errors = []
    facts = {"compile_ids": {}, "breaks": 0, "recompiles": 0, "events": 0}
    if not isinstance(trace, dict):
        return ["top level is not an object"], facts
    events = trace.get("traceEvents")
    if not isinstance(events, list):
        return ["no traceEvents list"], facts
    facts["events"] = len(events)
    thread_names = {}
    for n, e in enumerate(events):
        where = "event %d" % n
        if not isinstance(e, dict):
            errors.append(where + ": not an object")
            continue
        ph = e.get("ph")
        if ph not in PHASES:
            errors.append(where + ": ph %r not in %s" % (ph, sorted(PHASES)))
            continue
        for key in ("name", "pid", "tid", "ts"):
            if key not in e:
                errors.append(where + ": no " + key)
        if not isinstance(e.get("name"), str) or not e.get("name"):
            errors.append(where + ": name is not a non-empty string")
        if not is_num(e.get("ts")) or e.get("ts", -1) < 0:
            errors.append(where + ": ts %r is not a number >= 0" % (e.get("ts"),))
        if not is_num(e.get("pid")) or not is_num(e.get("tid")):
            errors.append(where + ": pid/tid are not numbers")
        args = e.get("args", {})
        if "args" in e and not isinstance(args, dict):
            errors.append(where + ": args is not an object")
            args = {}
        if ph == "X" and (not is_num(e.get("dur")) or e.get("dur", -1) < 0):
            errors.append(where + ": X without a dur >= 0")
        if ph in ("i", "I") and e.get("s", "t") not in ("g", "p", "t"):
            errors.append(where + ": instant scope %r not in g/p/t" % (e.get("s"),))
        if ph == "C":
            if not args or not all(is_num(v) for v in args.values()):
                errors.append(where + ": C args are not all numbers")
        if ph == "M":
            if e.get("name") in ("process_name", "thread_name"):
                if not isinstance(args.get("name"), str) or not args.get("name"):
                    errors.append(where + ": %s without args.name" % e.get("name"))
            if e.get("name") == "thread_name" and isinstance(args.get("name"), str):
                thread_names[(e.get("pid"), e.get("tid"))] = args["name"]
    # Fuselab's tracks: one per compile id, with its compile span and its phases
    compile_tracks = {k: v[len("compile "):] for k, v in thread_names.items() if v.startswith("compile ")}
    if not any(n == "process_name" for n in (e.get("name") for e in events if isinstance(e, dict) and e.get("ph") == "M")):
        errors.append("no process_name metadata")
    for key, cid in sorted(compile_tracks.items(), key=lambda kv: kv[1]):
        mine = [e for e in events if isinstance(e, dict) and (e.get("pid"), e.get("tid")) == key]
        timed = [e for e in mine if e.get("ph") == "X" and is_num(e.get("dur")) and is_num(e.get("ts"))]
        spans = [e for e in timed if e.get("cat") == "compile"]
        phases = [e for e in timed if e.get("cat") == "phase"]
        if len(spans) != 1:
            errors.append("compile %s: %d compile spans on its track (want 1)" % (cid, len(spans)))
            continue
        total = spans[0]["dur"]
        ssum = sum(p["dur"] for p in phases)
        names = [p["name"] for p in phases]
        facts["compile_ids"][cid] = {"span_us": total, "phase_sum_us": ssum, "phases": names,
                                     "status": spans[0].get("args", {}).get("status"),
                                     "cache": spans[0].get("args", {}).get("cache")}
        if not phases:
            errors.append("compile %s: no phase spans" % cid)
            continue
        if "trace" not in names:
            errors.append("compile %s: no trace phase" % cid)
        start, end = spans[0]["ts"], spans[0]["ts"] + total
        for p in phases:
            # a phase lies inside its compile id
            if p["ts"] < start - SLACK_US or p["ts"] + p["dur"] > end + SLACK_US:
                errors.append("compile %s: phase %s lies outside the compile span" % (cid, p["name"]))
        # in time, each phase starts once the one before it ended, in the order compiling goes
        timeline = sorted(phases, key=lambda p: p["ts"])
        for before, after in zip(timeline, timeline[1:]):
            if after["ts"] < before["ts"] + before["dur"] - SLACK_US:
                errors.append("compile %s: phase %s starts before phase %s ends" % (cid, after["name"], before["name"]))
        ranks = [(PHASE_ORDER.index(p["name"]), p["name"]) for p in timeline if p["name"] in PHASE_ORDER]
        for (r0, n0), (r1, n1) in zip(ranks, ranks[1:]):
            if r1 < r0:
                errors.append("compile %s: phase %s comes after phase %s" % (cid, n1, n0))
    for e in events:
        if not isinstance(e, dict) or e.get("ph") not in ("i", "I"):
            continue
        args = e.get("args", {}) or {}
        if e.get("name") == "graph break":
            facts["breaks"] += 1
        if e.get("name") in ("recompile", "recompile limit"):
            facts["recompiles"] += 1
        if e.get("name") in ("graph break", "recompile", "recompile limit"):
            if not isinstance(args.get("reason"), str) or not args.get("reason").strip():
                errors.append("instant %s at ts %s: no reason in args" % (e.get("name"), e.get("ts")))
    return errors, facts


def self_test():
    good = {"traceEvents": [
        {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "ts": 0, "args": {"name": "fuselab"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 100, "ts": 0, "args": {"name": "compile 0/0"}},
        {"ph": "X", "name": "compile 0/0", "cat": "compile", "pid": 1, "tid": 100, "ts": 10, "dur": 100, "args": {}},
        {"ph": "X", "name": "trace", "cat": "phase", "pid": 1, "tid": 100, "ts": 10, "dur": 60, "args": {}},
        {"ph": "X", "name": "lower", "cat": "phase", "pid": 1, "tid": 100, "ts": 70, "dur": 39, "args": {}},
        {"ph": "i", "s": "t", "name": "graph break", "pid": 1, "tid": 100, "ts": 50, "args": {"reason": "print"}},
        {"ph": "C", "name": "compile ids", "pid": 1, "tid": 5, "ts": 110, "args": {"value": 1}},
    ]}
    failures = 0

    def expect(trace, ok, what):
        nonlocal failures
        errs, _ = validate(trace)
        good_result = (not errs) == ok
        print("%s %s%s" % ("ok  " if good_result else "FAIL", what, "" if ok else " -> " + (errs[0] if errs else "accepted!")))
        failures += not good_result

    import copy
    expect(good, True, "a well-formed trace is accepted")
    short = copy.deepcopy(good); short["traceEvents"][3]["dur"] = 20
    expect(short, True, "phases that cover part of the compile span (a measurement, not an error)")
    bad = copy.deepcopy(good); bad["traceEvents"][3]["dur"] = 70
    expect(bad, False, "a phase that overlaps the next one")
    bad = copy.deepcopy(good); bad["traceEvents"][4]["dur"] = 45
    expect(bad, False, "a phase that ends after its compile span")
    bad = copy.deepcopy(good); bad["traceEvents"][3]["name"], bad["traceEvents"][4]["name"] = "lower", "trace"
    expect(bad, False, "phases out of order")
    bad = copy.deepcopy(good); bad["traceEvents"][3]["name"] = "parse"
    expect(bad, False, "a compile track without its trace phase")
    bad = copy.deepcopy(good); bad["traceEvents"][5]["args"] = {}
    expect(bad, False, "a graph break without a reason")
    bad = copy.deepcopy(good); bad["traceEvents"][2]["ts"] = -1
    expect(bad, False, "a negative ts")
    bad = copy.deepcopy(good); bad["traceEvents"][4]["ph"] = "Q"
    expect(bad, False, "an unknown ph")
    bad = copy.deepcopy(good); del bad["traceEvents"][4]["dur"]
    expect(bad, False, "an X without dur")
    bad = copy.deepcopy(good); bad["traceEvents"][6]["args"] = {"value": "one"}
    expect(bad, False, "a counter with a string value")
    bad = copy.deepcopy(good); bad["traceEvents"][5]["s"] = "x"
    expect(bad, False, "an instant with a bad scope")
    bad = copy.deepcopy(good); bad["traceEvents"][1]["args"] = {}
    expect(bad, False, "thread_name without args.name")
    expect({"events": []}, False, "no traceEvents")
    bad = copy.deepcopy(good); del bad["traceEvents"][2]
    expect(bad, False, "a compile track without its compile span")
    return 1 if failures else 0


def main():
    if "--self-test" in sys.argv:
        return self_test()
    path = [a for a in sys.argv[1:] if not a.startswith("--")][0]
    with open(path) as f:
        trace = json.load(f)
    errors, facts = validate(trace)
    for e in errors:
        print("invalid: " + e)
    print("%s: %d events, %d compile ids, %d graph breaks, %d recompiles: %s" % (
        path, facts["events"], len(facts["compile_ids"]), facts["breaks"], facts["recompiles"], "INVALID" if errors else "valid"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
