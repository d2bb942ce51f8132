# Views under dynamic sizes: reshapes whose sizes are symbolic (`B, T, C = x.size()` then
# `x.view(B, T, nh, C // nh)`, `view(-1, C)`, merging a symbolic dim), indexing with lists of ints
# (`x[:, [-1], :]`, several elements, a bare list), and an entry whose sizes a plain-int use pinned
# (its graph's shapes are then the pinned values, so its views lower as constants); pixel_shuffle
# as a view (div and mod of the output coordinates).
import torch


def heads(x):
    B, T, C = x.size()
    q = x.view(B, T, 2, C // 2).transpose(1, 2) * 2
    y = q.transpose(1, 2).contiguous().view(B, T, C)
    return y + 1, x.view(-1, C) - 1


def pinned(x):
    n = int(x.shape[1]) + 0  # a size read as a plain int: the entry's sizes are pinned
    return x.reshape(x.shape[0] * n, -1).sum(0), x.view(2, n, -1)[:, :, 1:] * n


def shuffle(x):
    return torch.relu(torch.nn.functional.pixel_shuffle(x, 2)) + 1


def lists(x):
    return x[:, [-1], :] * 2, x[:, [0, 2, 1, 0]] + 1, x[..., [1]], x[[-1]][:, :, [0, 0]]


for fn in (heads, pinned, lists, shuffle):
    cf = torch.compile(fn)
    for T in (3, 5, 4, 7):
        x = torch.randn(2, T, 4) if fn is not shuffle else torch.randn(2, 8, T, T + 1)
        got, want = cf(x), fn(x)
        got, want = (got,) if fn is shuffle else got, (want,) if fn is shuffle else want
        print(fn.__name__, T, [tuple(a.shape) for a in got], all(torch.allclose(a, b, rtol=1e-6, atol=1e-6) for a, b in zip(got, want)))
