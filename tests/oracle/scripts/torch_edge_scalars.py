# Python scalars at the edges, eager and compiled: ints past 64 bits raise PyTorch's overflow
# error, ints past 2^53 convert to float in one rounding, bool tensors with ints give int64,
# x[True] / x[False], empty dim lists, var's positional unbiased.
import torch


def attempt(name, f):
    try:
        r = f()
        print(name, r.dtype, tuple(r.shape), r.stride(), r.tolist())
    except Exception as e:
        print(name, type(e).__name__, str(e).split("\n")[0])


x = torch.tensor([[1.0, 2.0, 4.0], [3.0, -1.0, 0.5]])
b = torch.tensor([True, False, True])


def mul_big(t):
    return t * 10**20


def add_big(t):
    return torch.add(t, 2**64)


def add_2_54(t):
    return t + (2**54 + 2**30 + 1)


def bool_ops(t):
    return (t & 2) + (t | 4) + (t ^ 1)


def index_true(t):
    return t[True] * 2


def index_false(t):
    return t[False] + 1


def empty_dims(t):
    return t.sum(dim=[]) + t.amax(dim=())


def var_positional(t):
    return t.var(1, False) + t.std(0, True, True).sum()


def transposed(t):
    return t.t() * 2


for name, f, arg in [("mul_big", mul_big, x), ("add_big", add_big, x), ("add_2_54", add_2_54, torch.zeros(2)), ("bool_ops", bool_ops, b),
                     ("index_true", index_true, x), ("index_false", index_false, x), ("empty_dims", empty_dims, x),
                     ("var_positional", var_positional, x), ("transposed", transposed, x)]:
    attempt(name + " eager", lambda: f(arg))
    cf = torch.compile(f)
    attempt(name + " compiled", lambda: cf(arg))
