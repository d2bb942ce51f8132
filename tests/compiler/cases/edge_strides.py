# Output memory layout as eager's, compiled against eager (see compare, which compares strides): a
# pointwise op on a transposed or permuted view gives eager's permuted strides; expanded and
# contiguous inputs give contiguous outputs; dynamic sizes keep eager's order of dims.
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


def f_t_add(x):
    return x.t() + 1


def f_t_mul(x):
    return x.t() * 2


def f_permute(x):
    return x.permute(2, 0, 1) * 2


def f_expand(x):
    return x.expand(3, 4) + 1


def f_t_plus(x, y):
    return x.t() + y


def f_t_exp_sum(x):
    return torch.exp(x.t()), x.t().sum(0)


def f_transpose_gelu(x):
    return torch.nn.functional.gelu(x.transpose(1, 2)) + x.transpose(1, 2)


def f_strided_input(x):
    return x * 1e20


torch.manual_seed(0)
a = torch.arange(12.0).view(3, 4)
check("x.t() + 1", f_t_add, a)
check("x.t() * 2", f_t_mul, a)
check("x.permute(2, 0, 1) * 2", f_permute, torch.arange(24.0).view(2, 3, 4))
check("x.expand(3, 4) + 1", f_expand, torch.arange(4.0).view(1, 4))
check("x.t() + y", f_t_plus, a, torch.arange(12.0).view(4, 3))
check("exp(x.t()), x.t().sum(0)", f_t_exp_sum, a)
check("gelu(x.transpose(1, 2)) + x.transpose(1, 2)", f_transpose_gelu, torch.randn(2, 3, 5))
check("a transposed input * 1e20", f_strided_input, a.t())


def f_dyn(x):
    return torch.relu(x.t()) * 3  # exact: x * 3 + 1 is one fma compiled, two roundings eager


cd = torch.compile(f_dyn)
for shape in [(3, 4), (5, 6), (7, 9)]:
    x = torch.randn(*shape)
    r = compare(cd(x), f_dyn(x), 2e-6)
    print("dynamic sizes", shape, r if r == "ok" else "False: " + r)
