# Pointwise loops in two stages: a value that calls costly math is computed one block of 64
# elements ahead, beside the costly math of the block before that reads it. Lengths shorter than a
# block, not a multiple of it, longer than a row block of 4096 and not a multiple of it, a second
# dim, sizes that change between calls, a costly value read both by the later math and beside it,
# and special values.
import torch


def chain(x):
    y = x * torch.sigmoid(x)
    return torch.relu(torch.tanh(y) + 0.5 * x) * 2 - 1


def shared(x):
    s = torch.sigmoid(x)
    t = torch.tanh(x * s) + s  # s feeds tanh and is added after it
    return t, torch.exp(-torch.tanh(x * 0.5) ** 2)


def chain_2d(x):
    return chain(x)


def chain_dynamic(x):
    return chain(x)


def chain_special(x):
    return chain(x)


# one compiled function per group of calls: each length is a recompile, and a function stops
# compiling after 8
cc = torch.compile(chain, dynamic=False)
cs = torch.compile(shared, dynamic=False)
torch.manual_seed(0)
for n in [1, 63, 64, 65, 130, 4097, 8292]:
    x = torch.randn(n) * 4
    print(n, torch.allclose(cc(x), chain(x), rtol=1e-5, atol=1e-6),
          [torch.allclose(g, w, rtol=1e-5, atol=1e-6) for g, w in zip(cs(x), shared(x))])
c2 = torch.compile(chain_2d, dynamic=False)
x = torch.randn(3, 5000) * 4
print("3x5000", torch.allclose(c2(x), chain(x), rtol=1e-5, atol=1e-6), torch.allclose(c2(x.t().contiguous().t()), chain(x), rtol=1e-5, atol=1e-6))
cd = torch.compile(chain_dynamic)
for n in [5000, 9000, 70]:
    x = torch.randn(n) * 4
    print("dynamic", n, torch.allclose(cd(x), chain(x), rtol=1e-5, atol=1e-6))
cx = torch.compile(chain_special, dynamic=False)
cs = torch.compile(shared, dynamic=False)
x = torch.tensor([float('nan'), float('inf'), float('-inf'), 0.0, -0.0, 100.0, -100.0, 88.5, -88.5, 1e-30])
print("special", torch.allclose(cx(x), chain(x), rtol=1e-5, atol=1e-6, equal_nan=True),
      [torch.allclose(g, w, rtol=1e-5, atol=1e-6, equal_nan=True) for g, w in zip(cs(x), shared(x))])
print(cx(x))
