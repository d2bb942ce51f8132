#!/usr/bin/env python3
"""Runs each capture scenario under real PyTorch (2.11 on the GPU machine) and records what
torch.compile did: printed output, exit code, unique graph count, graph-break counters and the
TORCH_LOGS text. The result is the ground truth the scenario corpus's expectations come from.

usage: observe_torch.py SCENARIO_DIR OUT.json [names...]
The backend is forced to "eager": capture (graphs, breaks, guards, recompiles) does not depend
on it, and Inductor's cold compiles would take minutes."""
import json, os, subprocess, sys

BOOT = r'''
import json, runpy, sys, torch, torch._dynamo
_compile = torch.compile
def compile_eager(model=None, **kw):
    kw.pop("mode", None); kw.pop("options", None); kw["backend"] = "eager"
    if model is None:
        return lambda m: _compile(m, **kw)
    return _compile(model, **kw)
torch.compile = compile_eager
from torch._dynamo.utils import counters
rc = 0
try:
    runpy.run_path(sys.argv[1], run_name="__main__")
except SystemExit as e:
    rc = e.code if isinstance(e.code, int) else 1
except BaseException as e:
    import traceback; traceback.print_exc(); rc = 1
sys.stdout.flush()
info = {"unique_graphs": counters["stats"]["unique_graphs"],
        "calls_captured": counters["stats"]["calls_captured"],
        "graph_break": dict(counters["graph_break"])}
with open(sys.argv[2], "w") as f: json.dump(info, f)
sys.exit(rc)
'''

def main():
    src, out = sys.argv[1], sys.argv[2]
    names = sys.argv[3:] or sorted(n for n in os.listdir(src) if n.endswith(".py"))
    env = dict(os.environ, TORCH_LOGS="graph_breaks,recompiles,recompiles_verbose,guards,graph_code",
               CUDA_VISIBLE_DEVICES="", OMP_NUM_THREADS="2")
    result = {"torch": None, "scenarios": {}}
    import torch
    result["torch"] = torch.__version__
    src = os.path.abspath(src)

    def one(n):
        side = "/tmp/observe_%s.json" % n
        p = subprocess.run([sys.executable, "-c", BOOT, os.path.join(src, n), side], cwd=src,
                           capture_output=True, text=True, env=env, timeout=600)
        info = json.load(open(side)) if os.path.exists(side) else {}
        print(n, p.returncode, info.get("unique_graphs"), flush=True)
        return n, dict(info, rc=p.returncode, stdout=p.stdout, stderr=p.stderr)

    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=8) as pool:
        for n, r in pool.map(one, names):
            result["scenarios"][n] = r
    json.dump(result, open(out, "w"), indent=1, sort_keys=True)

main()
