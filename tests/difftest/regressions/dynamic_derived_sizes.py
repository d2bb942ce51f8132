# A size computed from a dynamic one (x.reshape(-1, 2) of an [s0, 3, 2] input is [6*s0, 2]) was
# recorded as the number it was at trace time and read into Python unguarded: `v * v.shape[0]`
# gave 432.0 where eager gives 288.0 once the graph was dynamic, and `new_zeros(v.shape)` raised.
def scale_by_rows(x):
    v = x.reshape(-1, 2)
    return v * v.shape[0]


def zeros_of_shape(x):
    v = x.reshape(-1, 2).clone()
    return v.new_zeros(v.shape) + v


def split_of_flat(x):
    v = x.flatten()
    return v.split(4)[-1] * 2


def len_of_strided(x):
    v = x[::2]
    return v * len(v)


def cat_size(x):
    v = torch.cat([x, x], 0)
    return torch.ones(v.size(0), 1) * v[:, :1]


for _f in (scale_by_rows, zeros_of_shape, split_of_flat, len_of_strided, cat_size):
    _check(_f.__name__, _f, torch.compile(_f), [(k, (lambda n=n: [torch.randn(n, 3, 2)])) for k, n in enumerate([4, 6, 4, 5, 7])])


# min(s0, 5) does not move when s0 is only doubled from 6: the sizes are moved three ways
def diagonal_shape(x):
    v = x.transpose(-1, -2).diagonal()
    return v.new_zeros(v.shape) + v


_check("diagonal_shape", diagonal_shape, torch.compile(diagonal_shape),
       [(k, (lambda n=n: [torch.randn(n, 2, 5)])) for k, n in enumerate([4, 6, 4, 3])])
