# A dynamic shape passed on as a value: torch.zeros(x.shape), new_zeros, full, reshape(x.shape),
# expand(x.shape), ones(*x.shape) were baked with the first sizes (20.0 where eager gives 12.0).
def zeros_shape(x):
    return torch.zeros(x.shape) + x


def new_zeros_shape(x):
    return x.new_zeros(x.shape) + 1


def full_shape(x):
    return torch.full(x.shape, 2.0) * x


def reshape_shape(x):
    return x.reshape(x.shape) * 3


def expand_shape(x):
    return torch.ones(1, 3).expand(x.shape) + x


def ones_star_shape(x):
    return torch.ones(*x.shape).sum()


def shape_local(x):
    s = x.shape
    return torch.ones(s[0], s[1]) * 2


def arange_size(x):
    return torch.arange(x.shape[0]) * 1.5


for _f in (zeros_shape, new_zeros_shape, full_shape, reshape_shape, expand_shape, ones_star_shape, shape_local, arange_size):
    _check(_f.__name__, _f, torch.compile(_f), [(n, lambda n=n: [torch.randn(n, 3)]) for n in (2, 4, 3, 5)])
