# Generators and generator expressions inside compiled functions: a generator resumed while
# tracing splits the graph (its statement runs eagerly), a generator expression is inlined. The
# values must equal eager's on every call, including the cached ones.
def _scaled(x, n):
    for i in range(n):
        yield x * (i + 1)


def gen_function(x0):
    parts = list(_scaled(x0, 3))
    return parts[0] + parts[1] * parts[2]


def gen_expression(x0):
    total = sum(v.sum() for v in (x0, x0 * 2, torch.relu(x0)))
    return x0 - total


def gen_from_outside(x0, g):
    return x0 + next(g)


def _pair():
    return [torch.randn(4, 5)]


for _f in (gen_function, gen_expression):
    _check(_f.__name__, _f, torch.compile(_f), [(1, _pair), (2, _pair), (3, lambda: [torch.randn(7)])])


def _outside(x0):
    return gen_from_outside(x0, (torch.full((5,), float(i)) for i in range(3)))


_check("gen_from_outside", _outside, torch.compile(_outside), [(1, _pair), (2, _pair)])
