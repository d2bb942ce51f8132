# chunk / split along a dynamic dim: the number of parts is a size (chunk(3)[-1] picked the wrong
# chunk, split(2)[-1] had the wrong shape).
def chunk_last(x):
    return x.chunk(3, 0)[-1]


def split_last(x):
    return x.split(2)[-1]


def split_count(x):
    return x * len(x.split(2))


def split_cat(x):
    return torch.cat(x.split(3), 0) * 2


for _f in (chunk_last, split_last, split_count, split_cat):
    _check(_f.__name__, _f, torch.compile(_f),
           [(n, lambda n=n: [torch.arange(n * 2, dtype=torch.float32).reshape(n, 2)]) for n in (5, 7, 8, 10, 7)])


def unbind_strided(x):
    return (-x)[..., ::2].unbind(0)[-1]


_check("unbind_strided", unbind_strided, torch.compile(unbind_strided), [(n, lambda n=n: [torch.randn(n)]) for n in (1, 2, 3, 5)])
