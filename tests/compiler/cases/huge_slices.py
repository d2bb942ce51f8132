# Slices whose bounds or step are ints past 64 bits clamp as Python's do, compiled as eagerly:
# x[:10**30] is x, x[-10**30:] is x, x[::10**30] is the first row.
import torch

big = 10**30


def f(x):
    a = x[:big] * 2
    b = x[-big:, 1:big] + 1
    c = x[::big] - 1
    d = x[1:big:2, -big:-2]
    e = x[big:] * 3
    return a, b, c, d, e


cf = torch.compile(f)
x = torch.arange(24.).reshape(6, 4)
got, want = cf(x), f(x)
print([tuple(t.shape) for t in got])
print([torch.equal(a, b) for a, b in zip(got, want)])
print(got[2], got[3])
