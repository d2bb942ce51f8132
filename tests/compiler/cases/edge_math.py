# Math at the edges of the float range, compiled against eager (see compare): sin and cos of large
# arguments (Payne-Hanek), exp's subnormal results (softmax of -inf and -100, exp(x) / sum by hand),
# sigmoid and silu where exp(-x) overflows, log1p past 1e38, the sign of zero, pow's special
# exponents, log_softmax of equal huge logits.
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


def f_sin(x):
    return torch.sin(x)


def f_cos(x):
    return torch.cos(x)


def f_sin_cos_fused(x):
    return torch.sin(x) * 2 + torch.cos(x * 0.5)


big = torch.tensor([1e7, 3e38, -3e38, 1e20, 12345678.0, 1e30, -1e10, 1048576.0, 1048575.9, 16777217.0, 0.0, -0.0, 1e-30,
                    float('inf'), float('-inf'), float('nan')])
check("sin of large arguments", f_sin, big)
check("cos of large arguments", f_cos, big)
check("sin, cos fused", f_sin_cos_fused, big)
small = torch.linspace(-20.0, 20.0, 64)
check("sin of small arguments", f_sin, small)
torch.manual_seed(0)
wide = torch.randn(4, 1024) * torch.tensor([1e1, 1e6, 1e12, 1e30]).view(4, 1)
check("sin of random arguments to 1e30", f_sin, wide)
check("cos of random arguments to 1e30", f_cos, wide)


def f_softmax(x):
    return torch.softmax(x, -1)


def f_log_softmax(x):
    return torch.log_softmax(x, -1)


def f_log_softmax_f(x):
    return torch.nn.functional.log_softmax(x, dim=-1)


def f_logsumexp(x):
    return torch.logsumexp(x, -1)


def f_exp_over_sum(x):
    e = torch.exp(x)
    return e / e.sum(-1, keepdim=True)


huge = torch.tensor([[3e38, 3e38], [-3e38, -3e38], [1.0, 1.0], [3e38, -3e38]])
check("log_softmax of equal huge logits", f_log_softmax, huge)
check("F.log_softmax of equal huge logits", f_log_softmax_f, huge)
check("softmax of equal huge logits", f_softmax, huge)
check("logsumexp of huge logits", f_logsumexp, huge)
check("softmax with a subnormal probability", f_softmax, torch.tensor([[float('-inf'), 0.0, -100.0, -90.0]]))
check("exp / sum over subnormal exps", f_exp_over_sum, torch.tensor([[-90.0, -95.0], [-100.0, -103.0]]))


def f_exp(x):
    return torch.exp(x)


def f_sigmoid(x):
    return torch.sigmoid(x)


def f_silu(x):
    return torch.nn.functional.silu(x)


def f_log1p(x):
    return torch.log1p(x)


def f_expm1(x):
    return torch.expm1(x)


tails = torch.tensor([-87.4, -88.72283, -88.72284, -90.0, -100.0, -103.97, -103.98, -104.0, -200.0, float('-inf'), 0.0, -0.0,
                      88.7, 89.0, 1e38, 1.0000001e38, 3e38, -1e-30])
check("exp near underflow", f_exp, tails)
check("sigmoid near underflow", f_sigmoid, tails)
check("silu near underflow", f_silu, tails)
check("log1p past 1e38", f_log1p, tails)
check("expm1 of -0.0", f_expm1, tails)


def f_pow_m05(x):
    return torch.pow(x, -0.5)


def f_pow_m1(x):
    return x ** -1


def f_pow_m2(x):
    return x ** -2


def f_pow_15(x):
    return x ** 1.5


def f_pow_0(x):
    return x ** 0


def f_pow_odd(x):
    return torch.pow(x, 16777217)


def f_pow_near_int(x):
    return x ** 2.9999999999


specials = torch.tensor([float('-inf'), -0.0, 0.0, float('inf'), float('nan'), 4.0, -8.0, 1e-45, 3e38])
check("pow(x, -0.5)", f_pow_m05, specials)
check("x ** -1", f_pow_m1, specials)
check("x ** -2", f_pow_m2, specials)
check("x ** 1.5", f_pow_15, specials)
check("x ** 0", f_pow_0, specials)
check("pow(x, 16777217), an odd exponent past 2^24", f_pow_odd, torch.full((17,), -1.0000001))
check("x ** 2.9999999999 (rounds to a float integer)", f_pow_near_int, torch.full((17,), -2.0))
