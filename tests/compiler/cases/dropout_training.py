# Dropout in training mode compiled: the noise a library call on LibTorch's generator (drawn as
# eager's dropout draws it, in program order, laid out as the input), the multiply a kernel. For
# one seed the compiled call keeps the elements eager keeps, scales them by the same float, and
# leaves the generator where eager leaves it; gradients through it are eager's. A transposed input
# (its noise drawn in the transposed layout), nn.Dropout, dynamic sizes.
import torch
import torch.nn as nn
import torch.nn.functional as F


def f(x, y):
    a = F.dropout(x * 3 + 1, 0.3) * 2
    b = F.dropout(y.t(), p=0.5, training=True) + 1
    c = nn.Dropout(0.1)(x)
    return a, b, c


cf = torch.compile(f)
for n in (4, 6, 4, 9):
    x, y = torch.randn(n, 5), torch.randn(5, n)
    torch.manual_seed(7)
    got = cf(x, y)
    after_compiled = torch.rand(1)
    torch.manual_seed(7)
    want = f(x, y)
    after_eager = torch.rand(1)
    print(n, [torch.equal(p, q) for p, q in zip(got, want)], torch.equal(after_compiled, after_eager),
          [t.stride() for t in got] == [t.stride() for t in want])

torch.manual_seed(0)
lin = nn.Linear(5, 5)


def g(x):
    return F.dropout(lin(x), 0.2).sum()


cg = torch.compile(g)
for _ in range(3):
    x = torch.randn(3, 5)
    torch.manual_seed(3)
    cg(x).backward()
    compiled_grad = lin.weight.grad.clone()
    lin.weight.grad = None
    torch.manual_seed(3)
    g(x).backward()
    print("grad", torch.equal(compiled_grad, lin.weight.grad))
    lin.weight.grad = None
