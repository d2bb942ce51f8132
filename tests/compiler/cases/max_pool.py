# max_pool2d as a kernel: windows of several sizes and strides, 3-D and 4-D inputs, a relu before
# it, and the values eager's rule gives: NaN wins, -0.0 seen before 0.0 stays, -inf alone stays;
# max_pool2d_with_indices (what compiled training's forward calls) also returns eager's indices.
import torch
import torch.nn.functional as F


def pool2(x):
    return F.max_pool2d(torch.relu(x), 2) * 2


def pool3s1(x):
    return F.max_pool2d(x, 3, stride=1) + 1


def pool_rect(x):
    return F.max_pool2d(x, (2, 3), (1, 2))


def with_indices(x):
    v, i = torch._C._nn.max_pool2d_with_indices(x, (2, 2), (2, 2), (0, 0), (1, 1), False)
    return v - 1, i + 0


def same(a, b):
    if isinstance(a, tuple):
        return all(same(p, q) for p, q in zip(a, b))
    return a.shape == b.shape and a.dtype == b.dtype and torch.equal(torch.nan_to_num(a, nan=7.0), torch.nan_to_num(b, nan=7.0)) and \
        torch.equal(torch.signbit(a) if a.is_floating_point() else a, torch.signbit(b) if b.is_floating_point() else b)


torch.manual_seed(0)
special = torch.tensor([[[[float("nan"), 1.0, -0.0, 0.0], [2.0, float("nan"), 0.0, -0.0],
                          [float("-inf"), float("-inf"), 3.0, 3.0], [float("-inf"), float("-inf"), 3.0, 5.0]]]])
for fn in (pool2, pool3s1, pool_rect, with_indices):
    cf = torch.compile(fn)
    for x in (torch.randn(2, 3, 8, 8), torch.randn(2, 3, 8, 8), torch.randn(3, 9, 7), special, special.repeat(2, 2, 1, 1)):
        if fn is pool3s1 and x.shape[-1] < 3:
            continue
        print(fn.__name__, tuple(x.shape), same(cf(x), fn(x)))
