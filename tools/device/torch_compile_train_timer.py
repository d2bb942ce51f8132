"""Time torch.compile's training step on a model script the way `fuselab bench` times Fuselab's.

usage: python3 tools/device/torch_compile_train_timer.py SCRIPT THREADS   (PyTorch 2.x, the GPU machine's CPU)

The script runs as written (its own training steps compile the forward and, at the first
backward(), the backward). Each torch.compile'd callable keeps the arguments of its last call;
afterwards the compiled callable and the original are timed on them, alternating, in 7 blocks of
at least 20 ms each: a run is the call and backward() of its float outputs that require grad,
each with a gradient of ones (what `fuselab bench` counts as "a training step's share" of a call
made with grad on). Prints one JSON line per callable: medians of the blocks, compiled and eager.
"""
import json
import os
import runpy
import statistics
import sys
import time

import torch


def outputs_needing_grad(result):
    if isinstance(result, torch.Tensor):
        return [result] if result.requires_grad and result.is_floating_point() else []
    if isinstance(result, (list, tuple)):
        return [t for r in result for t in outputs_needing_grad(r)]
    if isinstance(result, dict):
        return [t for r in result.values() for t in outputs_needing_grad(r)]
    return []


def step(fn, args, kwargs):
    outs = outputs_needing_grad(fn(*args, **kwargs))
    if outs:
        torch.autograd.backward(outs, [torch.ones_like(o) for o in outs])
    return bool(outs)


def block(fn, args, kwargs, n):
    t = time.perf_counter()
    for _ in range(n):
        step(fn, args, kwargs)
    return (time.perf_counter() - t) / n * 1e3


def main():
    script, threads = sys.argv[1], int(sys.argv[2])
    torch.set_num_threads(threads)
    real_compile = torch.compile
    records = []

    def patched(model=None, **kw):
        if model is None:
            return lambda m: patched(m, **kw)
        compiled = real_compile(model, **kw)
        rec = {"orig": model, "compiled": compiled, "args": None, "kwargs": None, "grad": False,
               "name": getattr(model, "__name__", type(model).__name__)}
        records.append(rec)

        class Wrapped:
            def __call__(self, *a, **k):
                rec["args"], rec["kwargs"], rec["grad"] = a, k, torch.is_grad_enabled()
                return compiled(*a, **k)

            def __getattr__(self, n):
                return getattr(compiled, n)
        return Wrapped()

    torch.compile = patched
    t0 = time.perf_counter()
    runpy.run_path(script, run_name="__main__")
    script_s = time.perf_counter() - t0
    for rec in records:
        if rec["args"] is None or not rec["grad"]:
            continue
        a, k = rec["args"], rec["kwargs"]
        for fn in (rec["compiled"], rec["orig"]):
            for _ in range(3):
                step(fn, a, k)
        one = max(block(rec["compiled"], a, k, 1), 1e-3)
        n = max(1, min(2000, int(20 / one)))
        cs, es = [], []
        for _ in range(7):
            cs.append(block(rec["compiled"], a, k, n))
            es.append(block(rec["orig"], a, k, n))
        c, e = statistics.median(cs), statistics.median(es)
        print(json.dumps({"script": os.path.basename(script), "who": "torch.compile", "torch": torch.__version__,
                          "threads": threads, "function": rec["name"], "runs": "call + backward()",
                          "cached_ms": c, "eager_ms": e, "speedup": e / c, "script_s": script_s}), flush=True)


if __name__ == "__main__":
    main()
