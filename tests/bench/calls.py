# One compiled function called with other inputs, with the same inputs again, and under
# torch.no_grad(): four call sites for `fuselab bench` (tests/bench/check_bench.py) and
# `fuselab profile` (tests/profiler/check_profile.py).
import torch


@torch.compile
def f(x, s):
    return torch.relu(x) * s


a = torch.randn(8, 4)
for _ in range(3):
    f(a, 2.0)
f(a, 3.0)
f(torch.randn(16, 4), 3.0)
with torch.no_grad():
    f(a, 2.0)
