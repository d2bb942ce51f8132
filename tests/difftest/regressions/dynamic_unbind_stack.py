# torch.stack(x.unbind(0)) with a dynamic first dim: crashed (an unchecked tuple index), raised
# TypeError, or returned the n=4 result for n=5.
def unbind_stack(x):
    return torch.stack(x.unbind(0))


def unbind_last(x):
    return x.unbind(0)[-1]


def unbind_inner(x):
    return torch.stack(x.unbind(1), 1)


def iterate_rows(x):
    return sum(r * 2 for r in x)


for _f in (unbind_stack, unbind_last, unbind_inner, iterate_rows):
    _check(_f.__name__, _f, torch.compile(_f), [(n, lambda n=n: [torch.randn(n, 2)]) for n in (2, 4, 3, 5, 4)])
