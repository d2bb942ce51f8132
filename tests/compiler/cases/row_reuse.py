# Reductions whose later loops reuse a costly value of the row (softmax's exp is summed, then
# divided): rows shorter than a block of 64, not a multiple of it, longer than the kept-row limit,
# reduced along a non-last dim, and a later loop that needs exp of a different value.
import torch


def f(x, y):
    a = torch.softmax(x, dim=-1)
    b = torch.log_softmax(x * 0.5, dim=-1)
    c = torch.softmax(x, dim=0)
    e = torch.exp(x - x.amax(-1, keepdim=True))
    d = e / e.sum(-1, keepdim=True) + torch.exp(x * 0.25)
    return a, b, c, d, torch.softmax(y, dim=-1)


cf = torch.compile(f, dynamic=False)  # static sizes: each row length gets its own kernels
torch.manual_seed(0)
for n in [7, 64, 1000]:
    x = torch.randn(5, n) * 4
    y = torch.randn(3, 5000)
    got, want = cf(x, y), f(x, y)
    print(n, [torch.allclose(g, w, rtol=1e-5, atol=1e-6) for g, w in zip(got, want)])
