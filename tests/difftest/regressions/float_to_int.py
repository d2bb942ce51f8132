# float -> int64 of NaN, inf and values past int64's range: a C cast is undefined there and the
# kernel gave other integers than eager's (x86-64 gives INT64_MIN for all of them).
def nan_to_long(x):
    return (float('nan') * x).to(torch.int64)


def specials_to_long(x):
    return (x * 1e30).long()


def mixed(x):
    return torch.where(x > 0, x / 0, x).long()


for _f in (nan_to_long, specials_to_long, mixed):
    _check(_f.__name__, _f, torch.compile(_f), [(k, (lambda: [torch.randn(3, 4)])) for k in range(3)])
