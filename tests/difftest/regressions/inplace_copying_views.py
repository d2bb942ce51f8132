# An in-place op on a view of a copying contiguous() / reshape() / flatten(): right on the first
# call, lost on cached calls (they returned the unmodified values).
def contiguous_view(x):
    y = x.t().contiguous()
    y[0].add_(1)
    return y


def reshape_view(x):
    z = x.t().reshape(-1)
    z[:2].mul_(5)
    return z


def flatten_view(x):
    w = x.t().flatten()
    w[0:1].sub_(3)
    return w


def copy_then_mutate(x):
    y = x.t().contiguous()
    y.mul_(2)
    return y + 1


def aliasing_views(x):
    y = x * 2
    z = y.reshape(-1)
    z[0] = 5.0
    w = y.t()
    w.mul_(3)
    return y


for _f in (contiguous_view, reshape_view, flatten_view, copy_then_mutate, aliasing_views):
    _check(_f.__name__, _f, torch.compile(_f), [(k, lambda: [torch.arange(6, dtype=torch.float32).reshape(2, 3)]) for k in range(4)])


def flatten_strided_input(x):
    y = x.flatten()
    y[0:1].sub_(3)
    return y * 2


def reshape_strided_input(x):
    y = x.reshape(-1)
    y[:2].mul_(5)
    return y + x.sum()


for _f in (flatten_strided_input, reshape_strided_input):
    _check(_f.__name__, _f, torch.compile(_f), [(k, lambda: [torch.arange(6, dtype=torch.float32).reshape(3, 2).t()]) for k in range(4)])
