# functools as model code uses it: partial (of layers and functions, nested), reduce, wraps,
# lru_cache / cache with cache_info, cached_property, total_ordering, cmp_to_key.
import functools
from functools import partial, reduce, wraps, lru_cache, cached_property, cmp_to_key
import torch
import torch.nn as nn


def scale(x, factor, *, shift=0):
    return x * factor + shift


double = partial(scale, factor=2)
print(double(3), double(3, shift=1), partial(double, shift=5)(1))
norm = partial(nn.LayerNorm, eps=1e-6)
ln = norm(4)
print(ln, ln.eps)
print(reduce(lambda a, b: a * b, [1, 2, 3, 4]), reduce(lambda a, b: a + b, [], 10))
try:
    reduce(lambda a, b: a, [])
except TypeError as e:
    print(e)


def logged(fn):
    @wraps(fn)
    def inner(*a, **k):
        return fn(*a, **k)
    return inner


@logged
def area(w, h):
    """Area of a rectangle."""
    return w * h


print(area.__name__, area.__doc__, area(2, 3), area.__wrapped__(4, 5))


@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(30), fib.cache_info())


@lru_cache(maxsize=2)
def sq(n):
    return n * n


for n in [1, 2, 1, 3, 2, 1]:
    sq(n)
print(sq.cache_info())
sq.cache_clear()
print(sq.cache_info())


@functools.cache
def cube(n):
    return n ** 3


print(cube(3), cube(3), cube.cache_info())


class Model:
    def __init__(self, n):
        self.n = n
        self.calls = 0

    @cached_property
    def weights(self):
        self.calls += 1
        return torch.arange(self.n, dtype=torch.float32)


m = Model(3)
print(m.weights, m.weights.sum().item(), m.calls)
print(sorted([3, 1, 2], key=cmp_to_key(lambda a, b: b - a)))


@functools.total_ordering
class V:
    def __init__(self, v):
        self.v = v

    def __eq__(self, o):
        return self.v == o.v

    def __lt__(self, o):
        return self.v < o.v


print(V(1) <= V(1), V(2) > V(1), V(1) >= V(2))
act = partial(torch.nn.functional.leaky_relu, negative_slope=0.1)
f = torch.compile(lambda x: act(x) * 2)
print(f(torch.tensor([-1.0, 2.0])))
