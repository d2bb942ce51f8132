# A multiply and an add that eager rounds apart must not become one fused multiply-add in a
# kernel: eager rounds v0 ** 2 to float32 before adding, an fma does not, and cos of a 2.5e7
# argument turns that one-ulp difference into 1.55 (p16_21967). Each pair of ops that eager
# rounds separately, where one rounding step decides the result.
def square_plus(x0, x1):
    return torch.cos(x0 ** 2 + 0.5 * x1)


def mul_plus(x0, x1):
    return torch.sin(x0 * x0 + x1)


def mul_minus(x0, x1):
    return torch.cos(x0 * x1 - x0 * x0)


def scale_shift(x0, x1):
    return torch.cos((x0 * 3.0 + 1.0) * x1)


def _big_pair():
    a = torch.tensor([4999.0, 4093.0, 3001.0, 2047.5, 8191.0, 1234.5, 4999.0, 5003.0])
    b = torch.tensor([1.0, 3.0, 0.5, -1.0, 7.0, 0.25, -3.0, 11.0])
    return [a, b]


def _big_pair_2d():
    a, b = _big_pair()
    return [a.repeat(3).reshape(3, 8) + torch.arange(3.0).reshape(3, 1), b.repeat(3).reshape(3, 8)]


for _f in (square_plus, mul_plus, mul_minus, scale_shift):
    _check(_f.__name__, _f, torch.compile(_f), [(1, _big_pair), (2, _big_pair_2d)])
