# Every pointwise op the lowering supports (core/lower/lower.cpp), compiled against eager (see
# compare) on special values: zeros of both signs, infinities, NaN, the smallest subnormal, the
# largest floats, exp's overflow and underflow edges, 1e7 and 2^24 + 1; binary ops on every pair.
# One def per op: a closure over the op would share one code object.
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


V = [0., -0., 1., -1., float('inf'), float('-inf'), float('nan'), 1e-45, 1e-38, 3e38, -3e38, 88.7, -87.4, -103.9, 1e7, 16777217.]
x = torch.tensor(V).view(1, 16)
xl = torch.tensor(V * 4).view(4, 16)
a2 = torch.tensor(V).view(16, 1).expand(16, 16).contiguous()
b2 = torch.tensor(V).view(1, 16).expand(16, 16).contiguous()


def u_exp(a):
    return torch.exp(a)


def u_expm1(a):
    return torch.expm1(a)


def u_log(a):
    return torch.log(a)


def u_log1p(a):
    return torch.log1p(a)


def u_sqrt(a):
    return torch.sqrt(a)


def u_rsqrt(a):
    return torch.rsqrt(a)


def u_sigmoid(a):
    return torch.sigmoid(a)


def u_tanh(a):
    return torch.tanh(a)


def u_erf(a):
    return torch.erf(a)


def u_sin(a):
    return torch.sin(a)


def u_cos(a):
    return torch.cos(a)


def u_floor(a):
    return torch.floor(a)


def u_ceil(a):
    return torch.ceil(a)


def u_abs(a):
    return torch.abs(a)


def u_neg(a):
    return torch.neg(a)


def u_reciprocal(a):
    return torch.reciprocal(a)


def u_round(a):
    return torch.round(a)


def u_trunc(a):
    return torch.trunc(a)


def u_relu(a):
    return torch.relu(a)


def u_square(a):
    return torch.square(a)


def u_silu(a):
    return F.silu(a)


def u_gelu(a):
    return F.gelu(a)


def u_gelu_tanh(a):
    return F.gelu(a, approximate='tanh')


def u_leaky_relu(a):
    return F.leaky_relu(a)


def u_dropout_eval(a):
    return F.dropout(a, 0.5, False)


def u_clamp(a):
    return a.clamp(-1.0, 1.0)


def u_clamp_min(a):
    return a.clamp(min=0.5)


def u_clamp_max(a):
    return a.clamp(max=-0.5)


def u_clone(a):
    return a.clone()


def u_float(a):
    return a.float() * 1


def u_not_gt0(a):
    return ~(a > 0)


def u_lnot(a):
    return torch.logical_not(a > 0)


def u_sum(a):
    return a.sum()


def u_sum_1(a):
    return a.sum(-1)


def u_mean(a):
    return a.mean(-1)


def u_amax(a):
    return a.amax(-1)


def u_amin(a):
    return a.amin(-1)


def u_prod(a):
    return a.prod(-1)


def u_var(a):
    return a.var(-1)


def u_std(a):
    return a.std(-1)


def u_softmax(a):
    return a.softmax(-1)


def u_log_softmax(a):
    return a.log_softmax(-1)


def u_layer_norm(a):
    return F.layer_norm(a, (a.shape[-1],))


def u_add0(a):
    return a + 0


def u_sub0(a):
    return a - 0


def u_mul1(a):
    return a * 1


def u_div1(a):
    return a / 1


def u_mul0(a):
    return a * 0


def u_rsub0(a):
    return 0 - a


def u_negneg(a):
    return -(-a)


def u_addneg0(a):
    return a + (-0.0)


def u_subneg0(a):
    return a - (-0.0)


def u_mul_neg1(a):
    return a * -1


def u_div2(a):
    return a / 2


def u_mul_1e30(a):
    return a * 1e30


def u_div_3(a):
    return a / 3


def u_sub_self(a):
    return a - a


def u_axa(a):
    return a * a + 0.0


def u_maxself(a):
    return torch.maximum(a, -a)


def u_where0(a):
    return torch.where(a > 0, a, -0.0)


def u_masked_fill(a):
    return a.masked_fill(a > 1, -0.0)


def u_clamp_nan(a):
    return a.clamp(min=0.0)


def u_relu_neg(a):
    return torch.relu(-a)


def u_pow_0(a):
    return a ** 2


def u_rpow_0(a):
    return 2 ** a


def u_pow_1(a):
    return a ** 3


def u_rpow_1(a):
    return 3 ** a


def u_pow_2(a):
    return a ** 0.5


def u_rpow_2(a):
    return 0.5 ** a


def u_pow_3(a):
    return a ** -0.5


def u_rpow_3(a):
    return -0.5 ** a


def u_pow_4(a):
    return a ** -1


def u_rpow_4(a):
    return -1 ** a


def u_pow_5(a):
    return a ** -2


def u_rpow_5(a):
    return -2 ** a


def u_pow_6(a):
    return a ** 0


def u_rpow_6(a):
    return 0 ** a


def u_pow_7(a):
    return a ** 1


def u_rpow_7(a):
    return 1 ** a


def u_pow_8(a):
    return a ** 1.5


def u_rpow_8(a):
    return 1.5 ** a


def u_pow_9(a):
    return a ** -1.5


def u_rpow_9(a):
    return -1.5 ** a


def u_pow_10(a):
    return a ** 16777217


def u_rpow_10(a):
    return 16777217 ** a


def u_pow_11(a):
    return a ** 0.1


def u_rpow_11(a):
    return 0.1 ** a


def u_pow_12(a):
    return a ** -3


def u_rpow_12(a):
    return -3 ** a


def u_pow_13(a):
    return a ** 4.0


def u_rpow_13(a):
    return 4.0 ** a


def u_pow_14(a):
    return a ** 0.0


def u_rpow_14(a):
    return 0.0 ** a


def u_pow_15(a):
    return a ** -0.0


def u_rpow_15(a):
    return -0.0 ** a


def b_add(a, b):
    return a + b


def b_sub(a, b):
    return a - b


def b_mul(a, b):
    return a * b


def b_div(a, b):
    return a / b


def b_maximum(a, b):
    return torch.maximum(a, b)


def b_minimum(a, b):
    return torch.minimum(a, b)


def b_pow(a, b):
    return torch.pow(a, b)


def b_eq(a, b):
    return a == b


def b_ne(a, b):
    return a != b


def b_lt(a, b):
    return a < b


def b_le(a, b):
    return a <= b


def b_gt(a, b):
    return a > b


def b_ge(a, b):
    return a >= b


def b_where(a, b):
    return torch.where(a > b, a, b)


def b_land(a, b):
    return (a > 0) & (b > 0)


def b_lor(a, b):
    return (a > 0) | (b > 0)


def b_rsub(a, b):
    return torch.rsub(a, b)


def b_sub_alpha(a, b):
    return torch.sub(a, b, alpha=2)


def b_add_alpha(a, b):
    return torch.add(a, b, alpha=-1)


check('exp', u_exp, x, rtol=2e-5)
check('exp (4 rows)', u_exp, xl, rtol=2e-5)
check('expm1', u_expm1, x, rtol=2e-5)
check('expm1 (4 rows)', u_expm1, xl, rtol=2e-5)
check('log', u_log, x, rtol=2e-5)
check('log (4 rows)', u_log, xl, rtol=2e-5)
check('log1p', u_log1p, x, rtol=2e-5)
check('log1p (4 rows)', u_log1p, xl, rtol=2e-5)
check('sqrt', u_sqrt, x, rtol=2e-5)
check('sqrt (4 rows)', u_sqrt, xl, rtol=2e-5)
check('rsqrt', u_rsqrt, x, rtol=2e-5)
check('rsqrt (4 rows)', u_rsqrt, xl, rtol=2e-5)
check('sigmoid', u_sigmoid, x, rtol=2e-5)
check('sigmoid (4 rows)', u_sigmoid, xl, rtol=2e-5)
check('tanh', u_tanh, x, rtol=2e-5)
check('tanh (4 rows)', u_tanh, xl, rtol=2e-5)
check('erf', u_erf, x, rtol=2e-5)
check('erf (4 rows)', u_erf, xl, rtol=2e-5)
check('sin', u_sin, x, rtol=2e-5)
check('sin (4 rows)', u_sin, xl, rtol=2e-5)
check('cos', u_cos, x, rtol=2e-5)
check('cos (4 rows)', u_cos, xl, rtol=2e-5)
check('floor', u_floor, x, rtol=2e-5)
check('floor (4 rows)', u_floor, xl, rtol=2e-5)
check('ceil', u_ceil, x, rtol=2e-5)
check('ceil (4 rows)', u_ceil, xl, rtol=2e-5)
check('abs', u_abs, x, rtol=2e-5)
check('abs (4 rows)', u_abs, xl, rtol=2e-5)
check('neg', u_neg, x, rtol=2e-5)
check('neg (4 rows)', u_neg, xl, rtol=2e-5)
check('reciprocal', u_reciprocal, x, rtol=2e-5)
check('reciprocal (4 rows)', u_reciprocal, xl, rtol=2e-5)
check('round', u_round, x, rtol=2e-5)
check('round (4 rows)', u_round, xl, rtol=2e-5)
check('trunc', u_trunc, x, rtol=2e-5)
check('trunc (4 rows)', u_trunc, xl, rtol=2e-5)
check('relu', u_relu, x, rtol=2e-5)
check('relu (4 rows)', u_relu, xl, rtol=2e-5)
check('square', u_square, x, rtol=2e-5)
check('square (4 rows)', u_square, xl, rtol=2e-5)
check('silu', u_silu, x, rtol=2e-5)
check('silu (4 rows)', u_silu, xl, rtol=2e-5)
check('gelu', u_gelu, x, rtol=2e-5)
check('gelu (4 rows)', u_gelu, xl, rtol=2e-5)
check('gelu_tanh', u_gelu_tanh, x, rtol=2e-5)
check('gelu_tanh (4 rows)', u_gelu_tanh, xl, rtol=2e-5)
check('leaky_relu', u_leaky_relu, x, rtol=2e-5)
check('leaky_relu (4 rows)', u_leaky_relu, xl, rtol=2e-5)
check('dropout_eval', u_dropout_eval, x, rtol=2e-5)
check('dropout_eval (4 rows)', u_dropout_eval, xl, rtol=2e-5)
check('clamp', u_clamp, x, rtol=2e-5)
check('clamp (4 rows)', u_clamp, xl, rtol=2e-5)
check('clamp_min', u_clamp_min, x, rtol=2e-5)
check('clamp_min (4 rows)', u_clamp_min, xl, rtol=2e-5)
check('clamp_max', u_clamp_max, x, rtol=2e-5)
check('clamp_max (4 rows)', u_clamp_max, xl, rtol=2e-5)
check('clone', u_clone, x, rtol=2e-5)
check('clone (4 rows)', u_clone, xl, rtol=2e-5)
check('float', u_float, x, rtol=2e-5)
check('float (4 rows)', u_float, xl, rtol=2e-5)
check('not_gt0', u_not_gt0, x, rtol=2e-5)
check('not_gt0 (4 rows)', u_not_gt0, xl, rtol=2e-5)
check('lnot', u_lnot, x, rtol=2e-5)
check('lnot (4 rows)', u_lnot, xl, rtol=2e-5)
check('sum', u_sum, x, rtol=2e-5)
check('sum (4 rows)', u_sum, xl, rtol=2e-5)
check('sum_1', u_sum_1, x, rtol=2e-5)
check('sum_1 (4 rows)', u_sum_1, xl, rtol=2e-5)
check('mean', u_mean, x, rtol=2e-5)
check('mean (4 rows)', u_mean, xl, rtol=2e-5)
check('amax', u_amax, x, rtol=2e-5)
check('amax (4 rows)', u_amax, xl, rtol=2e-5)
check('amin', u_amin, x, rtol=2e-5)
check('amin (4 rows)', u_amin, xl, rtol=2e-5)
check('prod', u_prod, x, rtol=2e-5)
check('prod (4 rows)', u_prod, xl, rtol=2e-5)
check('var', u_var, x, rtol=2e-5)
check('var (4 rows)', u_var, xl, rtol=2e-5)
check('std', u_std, x, rtol=2e-5)
check('std (4 rows)', u_std, xl, rtol=2e-5)
check('softmax', u_softmax, x, rtol=2e-5)
check('softmax (4 rows)', u_softmax, xl, rtol=2e-5)
check('log_softmax', u_log_softmax, x, rtol=2e-5)
check('log_softmax (4 rows)', u_log_softmax, xl, rtol=2e-5)
check('layer_norm', u_layer_norm, x, rtol=2e-5)
check('layer_norm (4 rows)', u_layer_norm, xl, rtol=2e-5)
check('add0', u_add0, x, rtol=2e-5)
check('add0 (4 rows)', u_add0, xl, rtol=2e-5)
check('sub0', u_sub0, x, rtol=2e-5)
check('sub0 (4 rows)', u_sub0, xl, rtol=2e-5)
check('mul1', u_mul1, x, rtol=2e-5)
check('mul1 (4 rows)', u_mul1, xl, rtol=2e-5)
check('div1', u_div1, x, rtol=2e-5)
check('div1 (4 rows)', u_div1, xl, rtol=2e-5)
check('mul0', u_mul0, x, rtol=2e-5)
check('mul0 (4 rows)', u_mul0, xl, rtol=2e-5)
check('rsub0', u_rsub0, x, rtol=2e-5)
check('rsub0 (4 rows)', u_rsub0, xl, rtol=2e-5)
check('negneg', u_negneg, x, rtol=2e-5)
check('negneg (4 rows)', u_negneg, xl, rtol=2e-5)
check('addneg0', u_addneg0, x, rtol=2e-5)
check('addneg0 (4 rows)', u_addneg0, xl, rtol=2e-5)
check('subneg0', u_subneg0, x, rtol=2e-5)
check('subneg0 (4 rows)', u_subneg0, xl, rtol=2e-5)
check('mul_neg1', u_mul_neg1, x, rtol=2e-5)
check('mul_neg1 (4 rows)', u_mul_neg1, xl, rtol=2e-5)
check('div2', u_div2, x, rtol=2e-5)
check('div2 (4 rows)', u_div2, xl, rtol=2e-5)
check('mul_1e30', u_mul_1e30, x, rtol=2e-5)
check('mul_1e30 (4 rows)', u_mul_1e30, xl, rtol=2e-5)
check('div_3', u_div_3, x, rtol=2e-5)
check('div_3 (4 rows)', u_div_3, xl, rtol=2e-5)
check('sub_self', u_sub_self, x, rtol=2e-5)
check('sub_self (4 rows)', u_sub_self, xl, rtol=2e-5)
check('axa', u_axa, x, rtol=2e-5)
check('axa (4 rows)', u_axa, xl, rtol=2e-5)
check('maxself', u_maxself, x, rtol=2e-5)
check('maxself (4 rows)', u_maxself, xl, rtol=2e-5)
check('where0', u_where0, x, rtol=2e-5)
check('where0 (4 rows)', u_where0, xl, rtol=2e-5)
check('masked_fill', u_masked_fill, x, rtol=2e-5)
check('masked_fill (4 rows)', u_masked_fill, xl, rtol=2e-5)
check('clamp_nan', u_clamp_nan, x, rtol=2e-5)
check('clamp_nan (4 rows)', u_clamp_nan, xl, rtol=2e-5)
check('relu_neg', u_relu_neg, x, rtol=2e-5)
check('relu_neg (4 rows)', u_relu_neg, xl, rtol=2e-5)
check('pow_0', u_pow_0, x, rtol=2e-5)
check('pow_0 (4 rows)', u_pow_0, xl, rtol=2e-5)
check('rpow_0', u_rpow_0, x, rtol=2e-5)
check('rpow_0 (4 rows)', u_rpow_0, xl, rtol=2e-5)
check('pow_1', u_pow_1, x, rtol=2e-5)
check('pow_1 (4 rows)', u_pow_1, xl, rtol=2e-5)
check('rpow_1', u_rpow_1, x, rtol=2e-5)
check('rpow_1 (4 rows)', u_rpow_1, xl, rtol=2e-5)
check('pow_2', u_pow_2, x, rtol=2e-5)
check('pow_2 (4 rows)', u_pow_2, xl, rtol=2e-5)
check('rpow_2', u_rpow_2, x, rtol=2e-5)
check('rpow_2 (4 rows)', u_rpow_2, xl, rtol=2e-5)
check('pow_3', u_pow_3, x, rtol=2e-5)
check('pow_3 (4 rows)', u_pow_3, xl, rtol=2e-5)
check('rpow_3', u_rpow_3, x, rtol=2e-5)
check('rpow_3 (4 rows)', u_rpow_3, xl, rtol=2e-5)
check('pow_4', u_pow_4, x, rtol=2e-5)
check('pow_4 (4 rows)', u_pow_4, xl, rtol=2e-5)
check('rpow_4', u_rpow_4, x, rtol=2e-5)
check('rpow_4 (4 rows)', u_rpow_4, xl, rtol=2e-5)
check('pow_5', u_pow_5, x, rtol=2e-5)
check('pow_5 (4 rows)', u_pow_5, xl, rtol=2e-5)
check('rpow_5', u_rpow_5, x, rtol=2e-5)
check('rpow_5 (4 rows)', u_rpow_5, xl, rtol=2e-5)
check('pow_6', u_pow_6, x, rtol=2e-5)
check('pow_6 (4 rows)', u_pow_6, xl, rtol=2e-5)
check('rpow_6', u_rpow_6, x, rtol=2e-5)
check('rpow_6 (4 rows)', u_rpow_6, xl, rtol=2e-5)
check('pow_7', u_pow_7, x, rtol=2e-5)
check('pow_7 (4 rows)', u_pow_7, xl, rtol=2e-5)
check('rpow_7', u_rpow_7, x, rtol=2e-5)
check('rpow_7 (4 rows)', u_rpow_7, xl, rtol=2e-5)
check('pow_8', u_pow_8, x, rtol=2e-5)
check('pow_8 (4 rows)', u_pow_8, xl, rtol=2e-5)
check('rpow_8', u_rpow_8, x, rtol=2e-5)
check('rpow_8 (4 rows)', u_rpow_8, xl, rtol=2e-5)
check('pow_9', u_pow_9, x, rtol=2e-5)
check('pow_9 (4 rows)', u_pow_9, xl, rtol=2e-5)
check('rpow_9', u_rpow_9, x, rtol=2e-5)
check('rpow_9 (4 rows)', u_rpow_9, xl, rtol=2e-5)
check('pow_10', u_pow_10, x, rtol=2e-5)
check('pow_10 (4 rows)', u_pow_10, xl, rtol=2e-5)
check('rpow_10', u_rpow_10, x, rtol=2e-5)
check('rpow_10 (4 rows)', u_rpow_10, xl, rtol=2e-5)
check('pow_11', u_pow_11, x, rtol=2e-5)
check('pow_11 (4 rows)', u_pow_11, xl, rtol=2e-5)
check('rpow_11', u_rpow_11, x, rtol=2e-5)
check('rpow_11 (4 rows)', u_rpow_11, xl, rtol=2e-5)
check('pow_12', u_pow_12, x, rtol=2e-5)
check('pow_12 (4 rows)', u_pow_12, xl, rtol=2e-5)
check('rpow_12', u_rpow_12, x, rtol=2e-5)
check('rpow_12 (4 rows)', u_rpow_12, xl, rtol=2e-5)
check('pow_13', u_pow_13, x, rtol=2e-5)
check('pow_13 (4 rows)', u_pow_13, xl, rtol=2e-5)
check('rpow_13', u_rpow_13, x, rtol=2e-5)
check('rpow_13 (4 rows)', u_rpow_13, xl, rtol=2e-5)
check('pow_14', u_pow_14, x, rtol=2e-5)
check('pow_14 (4 rows)', u_pow_14, xl, rtol=2e-5)
check('rpow_14', u_rpow_14, x, rtol=2e-5)
check('rpow_14 (4 rows)', u_rpow_14, xl, rtol=2e-5)
check('pow_15', u_pow_15, x, rtol=2e-5)
check('pow_15 (4 rows)', u_pow_15, xl, rtol=2e-5)
check('rpow_15', u_rpow_15, x, rtol=2e-5)
check('rpow_15 (4 rows)', u_rpow_15, xl, rtol=2e-5)
check('add', b_add, a2, b2, rtol=2e-5)
check('sub', b_sub, a2, b2, rtol=2e-5)
check('mul', b_mul, a2, b2, rtol=2e-5)
check('div', b_div, a2, b2, rtol=2e-5)
check('maximum', b_maximum, a2, b2, rtol=2e-5)
check('minimum', b_minimum, a2, b2, rtol=2e-5)
check('pow', b_pow, a2, b2, rtol=2e-5)
check('eq', b_eq, a2, b2, rtol=2e-5)
check('ne', b_ne, a2, b2, rtol=2e-5)
check('lt', b_lt, a2, b2, rtol=2e-5)
check('le', b_le, a2, b2, rtol=2e-5)
check('gt', b_gt, a2, b2, rtol=2e-5)
check('ge', b_ge, a2, b2, rtol=2e-5)
check('where', b_where, a2, b2, rtol=2e-5)
check('land', b_land, a2, b2, rtol=2e-5)
check('lor', b_lor, a2, b2, rtol=2e-5)
check('rsub', b_rsub, a2, b2, rtol=2e-5)
check('sub_alpha', b_sub_alpha, a2, b2, rtol=2e-5)
check('add_alpha', b_add_alpha, a2, b2, rtol=2e-5)
