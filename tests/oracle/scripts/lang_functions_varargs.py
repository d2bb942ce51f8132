# covers: *args, **kwargs in definitions, * and ** unpacking in calls, keyword-only after *args
import torch

torch.manual_seed(0)


def total(*args):
    s = 0
    for a in args:
        s += a
    return s


def show(*args, **kwargs):
    print("args:", args)
    print("kwargs:", kwargs)
    print(len(args), len(kwargs), sorted(kwargs))


def mix(a, b=10, *rest, scale=1, **opts):
    return (a + b + sum(rest)) * scale, opts


print(total())
print(total(1, 2, 3))
nums = [4, 5, 6]
print(total(*nums))
print(total(*nums, 100, *(1, 1)))
show()
show(1, "two", 3.0, lr=0.1, name="adam")
cfg = {"lr": 0.01, "momentum": 0.9}
show(*nums, **cfg)
show(**cfg, extra=True)
print(mix(1))
print(mix(1, 2, 3, 4))
print(mix(1, 2, 3, scale=2, tag="x"))
print(mix(*[5, 5], **{"scale": 3}))
shape = (2, 3)
print(torch.zeros(*shape).shape)
print(torch.ones(shape).sum().item())
print(max(*nums), min(3, *nums))


def outer(*args, **kwargs):
    return inner(*args, **kwargs)


def inner(x, y, z=0):
    return x * 100 + y * 10 + z


print(outer(1, 2), outer(1, y=2, z=3), outer(*(4, 5), **{"z": 6}))
