# Kernels that read the items of a tuple an eager op returns (sort's values and indices, topk's):
# each item is a buffer the kernel reads where the op has run, not a second eager op.
import torch


def sorted_mix(x):
    v, i = torch.sort(x, 1)
    return v * 2 + i


def top_two(x):
    t = torch.topk(x, 2, 1)
    return torch.relu(t[0]) * t[1] - t.values.sum(1, keepdim=True)


def descending_index(x):
    return torch.sort(x, 1, descending=True)[1] * 1.5 + x[:, :1]


torch.manual_seed(0)
for fn in (sorted_mix, top_two, descending_index):
    cf = torch.compile(fn)
    for shape in ((4, 6), (4, 6), (3, 5)):
        x = torch.randn(*shape)
        a, b = cf(x), fn(x)
        print(fn.__name__, tuple(a.shape), a.dtype, torch.equal(a, b))
