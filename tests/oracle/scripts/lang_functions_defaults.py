# covers: def with default arguments, keyword arguments, keyword-only parameters, return values
import torch

torch.manual_seed(0)


def scale(x, factor=2, offset=0.5):
    return x * factor + offset


def describe(name, size=3, *, verbose=False, sep=": "):
    if verbose:
        return name + sep + "size=" + str(size)
    return name


def make_list(item, times=1, acc=None):
    if acc is None:
        acc = []
    for _ in range(times):
        acc.append(item)
    return acc


print(scale(3))
print(scale(3, 4))
print(scale(3, offset=1.0))
print(scale(factor=0.5, x=10))
print(scale(1.5, 3, -1))
print(describe("layer"))
print(describe("layer", 7, verbose=True))
print(describe("block", verbose=True, sep=" -> "))
print(make_list("a"), make_list("b", 3), make_list(0, times=2, acc=[9]))
t = torch.arange(4.0)
print(scale(t))
print(scale(t, offset=-1))


def no_return():
    pass


def early(n):
    if n < 0:
        return "negative"
    return


print(no_return(), early(-1), early(5))
try:
    describe("x", 1, True)
except TypeError as e:
    print("TypeError raised")
