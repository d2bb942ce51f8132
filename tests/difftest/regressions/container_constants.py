# Constants read out of an input list or dict by a copy (list(), dict(), {**d}, f(**d), *xs), a
# loop, or a method (values(), items(), index()) were baked into the graph unguarded: a second
# call with other numbers replayed the first call's (x * 2.0 where eager gives x * 3.0). Capture
# now guards every item that such a read touches.
def list_copy(x0, xs):
    s = list(xs)
    return x0 * s[0]


def dict_copy(x0, kw):
    d = dict(kw)
    return x0 * d['a']


def loop_sum(x0, xs):
    total = 0.0
    for v in xs:
        total = total + v
    return x0 * total


def dict_values(x0, kw):
    d = {**kw}
    a, = kw.values()
    return x0 * d['a'] + a


def star_call(x0, xs):
    return torch.add(x0, *xs)


def kw_call(x0, kw):
    return torch.add(x0, x0, **kw)


_cases = [
    (list_copy, lambda s: [torch.randn(3), [float(s)]]),
    (dict_copy, lambda s: [torch.randn(3), {'a': float(s)}]),
    (loop_sum, lambda s: [torch.randn(3), [1.0, float(s)]]),
    (dict_values, lambda s: [torch.randn(3), {'a': float(s)}]),
    (star_call, lambda s: [torch.randn(3), [torch.ones(3)]]),
    (kw_call, lambda s: [torch.randn(3), {'alpha': float(s)}]),
]
for _f, _make in _cases:
    _check(_f.__name__, _f, torch.compile(_f), [(s, (lambda s=s, m=_make: m(s))) for s in (2, 3, 4)])
