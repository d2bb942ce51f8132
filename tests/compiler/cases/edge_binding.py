# Arguments bound as eager binds them, compiled against eager (see compare; the harness fails a line
# with the word False in it, so the names below spell it "off"): bool tensors with Python
# ints (& | ^ give int64), x[True] / x[False], empty dim lists (PyTorch 1.13 reduces every dim),
# var/std's positional unbiased, Python ints past 2^53 and past 64 bits, var/std of values past 1.8e19.
import math
import torch


def compare(c, e, rtol):
    """'ok', or how the compiled result c differs from eager's e: dtype, shape, strides, values
    (NaN matches NaN, zeros match in sign, |c - e| <= rtol |e| + 3e-45 elsewhere)."""
    if isinstance(e, str) or isinstance(c, str):
        return "ok" if c == e else "compiled %r, eager %r" % (c, e)
    if isinstance(e, (tuple, list)):
        for a, b in zip(c, e):
            r = compare(a, b, rtol)
            if r != "ok":
                return r
        return "ok" if len(c) == len(e) else "lengths"
    if c.dtype != e.dtype:
        return "dtype %s, eager %s" % (c.dtype, e.dtype)
    if tuple(c.shape) != tuple(e.shape):
        return "shape %s, eager %s" % (tuple(c.shape), tuple(e.shape))
    if c.stride() != e.stride() or c.is_contiguous() != e.is_contiguous():
        return "strides %s, eager %s" % (c.stride(), e.stride())
    lc, le = c.flatten().tolist(), e.flatten().tolist()
    for i in range(len(le)):
        p, q = lc[i], le[i]
        if not isinstance(q, float):
            if p != q:
                return "element %d: %r, eager %r" % (i, p, q)
            continue
        if p != p and q != q:
            continue
        if p == q and math.copysign(1.0, p) == math.copysign(1.0, q):
            continue
        if p == p and q == q and not math.isinf(p) and not math.isinf(q) and p != 0 and q != 0 and abs(p - q) <= rtol * abs(q) + 3e-45:
            continue
        return "element %d: %r, eager %r" % (i, p, q)
    return "ok"


def run(f, args):
    try:
        return f(*args)
    except Exception as ex:
        return "%s: %s" % (type(ex).__name__, str(ex).split("\n")[0])


def check(name, f, *args, rtol=2e-6):
    """Prints `name ok`, or `name False: why`: torch.compile(f) against f on the same inputs."""
    e = run(f, args)
    c = run(torch.compile(f), args)
    r = compare(c, e, rtol)
    print(name, r if r == "ok" else "False: " + r)


def f_and(b):
    return b & 2


def f_or(b):
    return b | 2


def f_xor(b):
    return b ^ 2


def f_rand(b):
    return 3 & b


def f_and_true(b):
    return b & True


def f_or_bool(b):
    return b | (b == False)  # noqa: E712


bools = torch.tensor([True, False, True, False])
check("bool & 2", f_and, bools)
check("bool | 2", f_or, bools)
check("bool ^ 2", f_xor, bools)
check("3 & bool", f_rand, bools)
check("bool & True", f_and_true, bools)
check("bool | bool", f_or_bool, bools)


def f_true(x):
    return x[True] * 2


def f_false(x):
    return x[False] * 2


def f_true_int(x):
    return x[True, 0] + 1


def f_none_true(x):
    return x[None, True] + 1


def f_ellipsis_true(x):
    return x[..., True] - 1


def f_int_true(x):
    return x[0, True] * 3


y = torch.arange(6.0).view(2, 3)
check("x[True]", f_true, y)
check("x[false] (an empty dim)", f_false, y)
check("x[True, 0]", f_true_int, y)
check("x[None, True]", f_none_true, y)
check("x[..., True]", f_ellipsis_true, y)
check("x[0, True]", f_int_true, y)


def f_sum_empty(x):
    return x.sum(dim=[])


def f_amax_empty(x):
    return x.amax(dim=())


def f_amin_empty_keepdim(x):
    return torch.amin(x, dim=[], keepdim=True)


def f_mean_empty(x):
    return x.mean(dim=[])


def f_sum_empty_positional(x):
    return torch.sum(x, [], True)


def f_var_empty(x):
    return x.var(dim=[])


check("sum(dim=[])", f_sum_empty, y)
check("amax(dim=())", f_amax_empty, y)
check("amin(dim=[], keepdim=True)", f_amin_empty_keepdim, y)
check("mean(dim=[])", f_mean_empty, y)
check("sum(x, [], True)", f_sum_empty_positional, y)
check("var(dim=[])", f_var_empty, y)


def f_var_pos(x):
    return x.var(1, False)


def f_std_pos(x):
    return x.std(1, False)


def f_var_all_pos(x):
    return x.var(False)


def f_var_keep_pos(x):
    return torch.var(x, 0, True, True)


def f_std_kw(x):
    return torch.std(x, dim=1, unbiased=False, keepdim=True)


def f_var_correction(x):
    return torch.var(x, 1, correction=0)


z = torch.tensor([[1.0, 2.0, 4.0], [3.0, -1.0, 0.5]])
check("var(1, unbiased positional, off)", f_var_pos, z)
check("std(1, unbiased positional, off)", f_std_pos, z)
check("var(unbiased positional, off)", f_var_all_pos, z)
check("var(x, 0, True, True)", f_var_keep_pos, z)
check("std(dim=1, unbiased=off, keepdim=on)", f_std_kw, z)
check("var(x, 1, correction=0)", f_var_correction, z)


def f_var_all(x):
    return x.var()


def f_std_rows(x):
    return x.std(-1)


def f_var_rows_keep(x):
    return x.var(-1, keepdim=True)


check("var of values past 1.8e19", f_var_all, torch.tensor([3e19, 0.0, 0.0, 0.0, 0.0, 0.0]))
huge_rows = torch.tensor([[3e38, -3e38, 0.0], [3e38, 3e38, 3e38], [1e-30, 2e-30, 4e-30], [2e19, 1.0, -2e19], [1e-40, 3e-40, 0.0],
                          [1.0, float('nan'), 2.0], [float('inf'), 1.0, 2.0]])
check("std of huge, equal, tiny and subnormal rows", f_std_rows, huge_rows)
check("var of huge, equal, tiny and subnormal rows", f_var_rows_keep, huge_rows)
torch.manual_seed(0)
check("var of ordinary rows", f_var_rows_keep, torch.randn(8, 300) * 5 + 3)


def f_big_mul(x):
    return x * 10**20


def f_big_add(x):
    return x + 2**70


def f_big_torch_mul(x):
    return torch.mul(x, 2**64)


def f_int_past_2_53(x):
    return x + (2**54 + 2**30 + 1)


def f_int_past_2_53_mul(x):
    return x * (2**60 + 2**36 + 1)


def f_int_min(x):
    return x - (-2**63)


check("x * 10**20", f_big_mul, z)
check("x + 2**70", f_big_add, z)
check("torch.mul(x, 2**64)", f_big_torch_mul, z)
check("x + (2**54 + 2**30 + 1)", f_int_past_2_53, torch.zeros(3))
check("x * (2**60 + 2**36 + 1)", f_int_past_2_53_mul, torch.ones(3))
check("x - (-2**63)", f_int_min, z)
