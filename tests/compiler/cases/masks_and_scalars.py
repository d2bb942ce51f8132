# Bool masks, comparisons, where, masked_fill with -inf, symbolic float arguments.
import torch


def f(x, mask, s):
    y = x.masked_fill(mask, float('-inf')).softmax(-1)
    z = torch.where(x > s, x * s, x - s)
    return y, z, (x > 0) & mask


cf = torch.compile(f)
torch.manual_seed(0)
x = torch.randn(3, 5, 7)
mask = torch.triu(torch.ones(5, 7, dtype=torch.bool), diagonal=1)
for s in [0.5, 0.25, 2.0]:
    got, want = cf(x, mask, s), f(x, mask, s)
    print(s, [torch.allclose(a, b, rtol=1e-5, atol=1e-6) if a.dtype != torch.bool else torch.equal(a, b) for a, b in zip(got, want)])
