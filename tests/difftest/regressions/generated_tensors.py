# Tensors made from their index (arange, zeros/ones/full and their _like forms, tril/triu) ran
# eagerly one by one, splitting kernels; they lower to index expressions now. Each must give
# eager's dtype, shape and values: int arange with start/step/dtype, a symbolic end read into a
# local (`b, t = x.size()`), float arange (kept eager), factories of each dtype, diagonals.
def arange_end(x):
    return x + torch.arange(x.shape[-1])


def arange_start_step(x):
    return torch.arange(2, 3 * x.shape[1] + 2, 3), torch.arange(10, -5, -4), torch.arange(7, 7)


def arange_dtypes(x):
    a = torch.arange(1, 6, dtype=torch.float32) * x[0, :5]
    b = torch.arange(0, 5, 2, dtype=torch.long) + 1
    return a, b, torch.arange(5, dtype=torch.int64) * 2


def arange_float(x):
    return torch.arange(0.1, 3.3, 0.3) + x[0, 0], torch.arange(0, 2.5, 0.5), torch.arange(-1.5, 4)


def arange_symbolic(x):
    b, t = x.size()
    pos = torch.arange(0, t, dtype=torch.long)
    return x * pos, pos + b


def arange_size_local(x):
    n = x.size(0)
    return torch.arange(n) * 3, torch.zeros(n, 2) + x[:, :2]


def factories(x):
    z = torch.zeros(2, 3)
    o = torch.ones((3,), dtype=torch.int64)
    f = torch.full((2, 3), 1.5)
    fb = torch.full([2, 2], True)
    fi = torch.full((3,), 7)
    return z + x[:2, :3], o * 2, f * x[:2, :3], fb, fi, torch.ones(2, 2, dtype=torch.bool), torch.zeros(3, dtype=torch.long)


def factories_like(x):
    return torch.zeros_like(x) + 1, torch.ones_like(x, dtype=torch.int64), torch.full_like(x, -2.25), torch.full_like(x, 3, dtype=torch.long)


def tril_triu(x):
    return torch.tril(x), torch.triu(x, diagonal=1), x.tril(-1), torch.triu(x, 2), torch.tril(x, 9) * 2


def tril_masks(x):
    t = x.shape[-1]
    causal = torch.tril(torch.ones(t, t))
    upper = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
    att = x[:t].masked_fill(causal == 0, float('-inf')).softmax(-1)
    return att, x[:t].masked_fill(upper, 0.0), torch.tril(torch.ones(3, 5, dtype=torch.long), 1)


def tril_batched(x):
    return torch.tril(x.reshape(2, 3, 5)), torch.triu(x.reshape(2, 3, 5) > 0, -1)


for _f in (arange_end, arange_start_step, arange_dtypes, arange_float, factories, factories_like, tril_triu, tril_masks, tril_batched):
    _check(_f.__name__, _f, torch.compile(_f), [(s, lambda: [torch.randn(6, 5)]) for s in (1, 2)])
_check("arange_symbolic", arange_symbolic, torch.compile(arange_symbolic), [(n, lambda n=n: [torch.randn(3, n)]) for n in (2, 3, 5, 7)])
_check("arange_size_local", arange_size_local, torch.compile(arange_size_local), [(n, lambda n=n: [torch.randn(n, 4)]) for n in (2, 3, 5, 7)])


# An integer comparison of generated positions (a causal mask from aranges) compares int64 values
# exactly, not through float.
def arange_mask(x):
    t = x.shape[-1]
    i = torch.arange(t)
    keep = i[:, None] >= i[None, :]
    big = torch.arange(2**24, 2**24 + 4) > 2**24
    past = torch.arange(2**24, 2**24 + 2) < 16777217  # [True, False]; through float, [False, False]
    return x.masked_fill(~keep, -1.0), big, i == 3, i.unsqueeze(0) < 16777217, past


_check("arange_mask", arange_mask, torch.compile(arange_mask), [(s, lambda: [torch.randn(5, 5)]) for s in (1, 2)])
