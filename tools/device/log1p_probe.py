# Run on the GPU machine under both `python3` (PyTorch 2.11, Inductor) and `fuselab run`:
# compares eager log1p(abs(x)) with the compiled function over special values and a
# log-uniform sweep of float32, printing every value where the two differ.
import torch

vals = [0.0, -0.0, 1e-45, 3e-45, 1e-40, 1e-38, 1e-30, 1e-10, 1e-7, 0.1, 0.5, 1.0, 2.0, 1e10,
        1e30, 1e37, 9.9e37, 1e38, 1.01e38, 1.5e38, 3e38, 3.4e38, float("inf"), float("nan")]


def f(x):
    return torch.log1p(torch.abs(x))


cf = torch.compile(f)


def report(name, x):
    e = f(x)
    c = cf(x)
    bad = (e != c) & ~(e.isnan() & c.isnan())
    n = int(bad.sum())
    print(name, "size", x.numel(), "differ", n)
    xs = x[bad][:12].tolist()
    es = e[bad][:12].tolist()
    cs = c[bad][:12].tolist()
    for a, b, d in zip(xs, es, cs):
        print("  x", repr(a), "eager", repr(b), "compiled", repr(d))


print("torch", torch.__version__)
report("specials", torch.tensor(vals))
for v in [1e38, 3e38, 1e-40]:
    report("single " + repr(v), torch.tensor([v]))
torch.manual_seed(0)
report("sweep", torch.exp2(torch.empty(1 << 18).uniform_(-149.0, 127.9)))
report("sweep-neg", -torch.exp2(torch.empty(1 << 16).uniform_(-149.0, 127.9)))
