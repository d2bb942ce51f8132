# After a second shape turns on automatic dynamic sizes, x.numel() and len(x) are read into Python:
# the compiled code must not keep the sizes it was traced with (n=3 gave 8.0 where eager gives 6.0).
def numel_scale(x):
    return x * x.numel()


def len_scale(x):
    return x * len(x)


def size_scale(x):
    return x * x.shape[-1]


for _f in (numel_scale, len_scale, size_scale):
    _check(_f.__name__, _f, torch.compile(_f), [(n, lambda n=n: [torch.ones(n) * 2]) for n in (2, 4, 3, 5)])
