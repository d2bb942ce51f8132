import functools
import torch


def scale(x, factor, bias=0.0):
    return x * factor + bias


@torch.compile
def f(x, g):
    h = functools.partial(torch.add, alpha=2)
    return h(g(x), x)


x = torch.ones(3)
print(f(x, functools.partial(scale, factor=2.0)))
print(f(x, functools.partial(scale, factor=3.0)))
