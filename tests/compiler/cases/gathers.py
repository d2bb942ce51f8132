# Gathers and the ops built on them: embedding (a row number read from the data, clamped, the
# index tensor checked before the result is used), cross_entropy (the target's log-probability
# gathered, ignore_index, every reduction), F.pad in constant mode (positive, negative, NaN value).
# Indices outside the table raise eager's IndexError from the compiled call too, whether they are
# an input, a view of one (the check covers the whole input: eager's path, same answer) or computed.
import torch
import torch.nn.functional as F


def same(a, b):
    if isinstance(a, tuple):
        return all(same(p, q) for p, q in zip(a, b))
    return a.shape == b.shape and a.dtype == b.dtype and torch.allclose(a, b, rtol=1e-6, atol=1e-6, equal_nan=True)


torch.manual_seed(0)
tok = torch.randn(50, 8)
pos = torch.randn(16, 8)


def embed(idx):
    b, t = idx.size()
    p = torch.arange(0, t, dtype=torch.long)
    return torch.tanh(F.embedding(idx, tok) + F.embedding(p, pos)) * 2


def embed_view(idx):
    return F.embedding(idx[:, 1:], tok.t().contiguous().t()).sum(-1)


def embed_computed(idx):
    return F.embedding(idx * 2 + 1, tok) - 1


def ce(x, t):
    return (F.cross_entropy(x, t, ignore_index=-1), F.cross_entropy(x, t, ignore_index=-1, reduction="sum"),
            F.cross_entropy(x, t, ignore_index=-1, reduction="none") * 1)


def ce_default(x, t):
    return F.cross_entropy(x.view(-1, x.size(-1)), t.view(-1))


def pads(x):
    return (F.pad(x, (1, 2)), F.pad(x * 2, (0, 0, 2, 1), value=-1.5), F.pad(x, (-1, 1, 1, -1)) + 0,
            F.pad(x.t(), (3, 0), "constant", float("nan")))


def attempt(cf, fn, *args):
    try:
        r = cf(*args)
    except IndexError as e:
        print("  IndexError:", e)
        return
    print("  same:", same(r, fn(*args)))
    print("  ", r if not isinstance(r, tuple) else r[0])


for fn, inputs in [
    (embed, [torch.randint(0, 50, (2, 5)), torch.randint(0, 50, (3, 7)), torch.randint(0, 50, (1, 16)),
             torch.tensor([[1, 50]]), torch.tensor([[1, -1]]), torch.zeros(1, 17, dtype=torch.long)]),
    (embed_view, [torch.randint(0, 50, (2, 5)), torch.tensor([[99, 3, 4]]), torch.tensor([[3, 99, 4]])]),
    (embed_computed, [torch.randint(0, 24, (2, 3)), torch.tensor([[24, 1]]), torch.tensor([[-1, 1]])]),
    (ce, [(torch.randn(4, 5) * 10, torch.tensor([1, -1, 2, 3])), (torch.randn(4, 5), torch.tensor([-1, -1, -1, -1])),
          (torch.randn(6, 5), torch.tensor([0, 4, 2, 1, 1, 3])), (torch.randn(4, 5), torch.tensor([1, 5, 2, 3])),
          (torch.tensor([[3e38, 3e38], [float("inf"), 0.0], [float("nan"), 1.0]]), torch.tensor([0, 1, 1]))]),
    (ce_default, [(torch.randn(2, 3, 7), torch.randint(0, 7, (2, 3))), (torch.randn(2, 3, 7), torch.tensor([[1, -100, 2], [0, 0, -100]])),
                  (torch.randn(2, 3, 7), torch.tensor([[1, -1, 2], [0, 0, 0]]))]),
    (pads, [torch.randn(3, 4), torch.randn(5, 7), torch.randn(1, 2), torch.randn(4, 1)]),
]:
    cf = torch.compile(fn)
    for x in inputs:
        print(fn.__name__, tuple(x.shape) if not isinstance(x, tuple) else tuple(x[0].shape))
        attempt(cf, fn, *(x if isinstance(x, tuple) else (x,)))
