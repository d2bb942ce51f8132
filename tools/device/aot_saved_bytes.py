"""What torch.compile's partitioner (AOTAutograd's min-cut rematerialization) saves between the
forward and the backward of a training script, to set beside Fuselab's partition.

usage: python3 tools/device/aot_saved_bytes.py SCRIPT   (PyTorch 2.x, the GPU machine's CPU)

Runs the script with the `aot_graphs` log on (Inductor, as torch.compile runs by default),
takes each compiled graph's printed forward graph and prints, per graph, the values its forward
returns for the backward: the graph's own inputs (read in place, no extra memory) and the others
with their dtype, shape and bytes, and the total of those. The list starts with the graph's
outputs (and buffers it updates, such as batch-norm running statistics): read it to tell them
from the saved values. `fuselab kernels --decisions SCRIPT`
prints Fuselab's partition of the same graph, with the same byte counts.
"""
import logging
import re
import runpy
import sys

import torch

BYTES = {"f32": 4, "f64": 8, "i64": 8, "i32": 4, "b8": 1, "f16": 2, "bf16": 2, "u8": 1, "i8": 1}


class Keep(logging.Handler):
    def __init__(self):
        super().__init__()
        self.texts = []

    def emit(self, record):
        self.texts.append(record.getMessage())


def forward_graphs(texts):
    for t in texts:
        if "Forward graph" not in t and "forward graph" not in t.lower():
            continue
        start = t.lower().find("forward graph")
        end = t.lower().find("backward graph", start)
        yield t[start:end if end > 0 else len(t)]


def saved(graph):
    shapes = {}
    for m in re.finditer(r'(\w+): "(\w+)\[([^\]]*)\]', graph):
        shapes.setdefault(m.group(1), (m.group(2), m.group(3)))
    ret = re.findall(r"return \[?\(?([^\]\)]*)", graph)
    if not ret:
        return None
    names = [x.strip() for x in ret[-1].split(",") if x.strip()]
    out = []
    for n in names:
        dt, dims = shapes.get(n, ("?", ""))
        numel = 1
        for d in [x.strip() for x in dims.split(",") if x.strip()]:
            numel *= int(d) if d.isdigit() else 0
        out.append((n, dt, dims, numel * BYTES.get(dt, 0)))
    return out


def main():
    keep = Keep()
    torch._logging.set_logs(aot_graphs=True)
    for name in ("torch._functorch._aot_autograd", "torch._functorch", "torch"):
        logging.getLogger(name).addHandler(keep)
    sys.argv = [sys.argv[1]]
    runpy.run_path(sys.argv[0], run_name="__main__")
    for i, g in enumerate(forward_graphs(keep.texts)):
        s = saved(g)
        if s is None:
            continue
        inputs = [x for x in s if x[0].startswith("primals")]
        others = [x for x in s if not x[0].startswith("primals")]
        print(f"graph {i}: the forward returns {len(s)} values (its outputs, updated buffers, then what the backward "
              f"reads): {len(inputs)} inputs (no copy), {len(others)} computed, {sum(x[3] for x in others)} bytes")
        for n, dt, dims, b in others:
            print(f"    {n}: {dt}[{dims}] {b} bytes")


if __name__ == "__main__":
    main()
