import torch
import torch.nn.functional as F

_SPECIALS = [float('inf'), float('-inf'), float('nan'), -0.0, 0.0, 1e-45, 1e-38, 3e38, -3e38, 88.7, -87.4, -103.9, 1e7, 16777217.0, -1.0, 1.0]


def _special(t):
    flat = t.reshape(-1)
    for i in range(0, flat.numel(), 3):
        flat[i] = _SPECIALS[(i // 3) % len(_SPECIALS)]
    return t


def _layout(t):
    if t.dim() == 0 or t.numel() <= 1:
        return "scalar"
    dims = [d for d in range(t.dim()) if t.shape[d] > 1]
    order = sorted(dims, key=lambda d: (-t.stride(d), d))
    return "%s%s" % ("c" if t.is_contiguous() else "n", order)


def _same(a, b):
    """None when compiled `a` matches eager `b`, else what differs."""
    if isinstance(b, (tuple, list)):
        if not isinstance(a, (tuple, list)) or len(a) != len(b):
            return "structure"
        for i in range(len(b)):
            w = _same(a[i], b[i])
            if w is not None:
                return "[%d] %s" % (i, w)
        return None
    if isinstance(b, torch.Tensor):
        if not isinstance(a, torch.Tensor):
            return "not a tensor: %s" % type(a).__name__
        if a.dtype != b.dtype:
            return "dtype %s, eager %s" % (a.dtype, b.dtype)
        if a.shape != b.shape:
            return "shape %s, eager %s" % (list(a.shape), list(b.shape))
        if _layout(a) != _layout(b):
            return "layout %s, eager %s" % (_layout(a), _layout(b))
        if a.numel() == 0:
            return None
        if a.dtype.is_floating_point:
            # float64 results are often float32 math converted (x.sum().double()): the same
            # tolerance for both, which reassociation of a float32 reduction stays inside
            tol = 1e-4
            if not torch.allclose(a, b, rtol=tol, atol=tol, equal_nan=True):
                d = (a - b).abs()
                d = d[~torch.isnan(d)]
                return "values differ (max abs diff %s)" % (d.max().item() if d.numel() else "nan")
            return None
        if not torch.equal(a, b):
            return "values differ"
        return None
    if a != b and not (a != a and b != b):
        return "%r, eager %r" % (a, b)
    return None


def _check(name, f, cf, make):
    for k in range(len(make)):
        torch.manual_seed(make[k][0])
        xs = make[k][1]()
        torch.manual_seed(make[k][0])
        ys = make[k][1]()
        try:
            want = f(*xs)
        except Exception as e:
            print("SKIP %s call %d: eager raised %s: %s" % (name, k, type(e).__name__, str(e).split(chr(10))[0][:200]))
            return
        try:
            got = cf(*ys)
        except Exception as e:
            print("MISMATCH %s call %d: compiled raised %s: %s" % (name, k, type(e).__name__, e))
            return
        why = _same(got, want)
        if why is not None:
            print("MISMATCH %s call %d: %s" % (name, k, why))
            return
    print("ok %s" % name)


def p11_10406(x0, x1, x2):
    v0 = torch.rsqrt(torch.abs(x1) + 1)
    v4 = torch.full_like(v0, float('inf'))
    v6 = F.gelu(v4)
    return v6


_make_p11_10406 = [
    (77, lambda: [torch.randn((4, 3, 5, )), torch.randint(-5, 6, (2, )), _special(torch.randn(()))]),
]
_check('p11_10406', p11_10406, torch.compile(p11_10406), _make_p11_10406)


def p11_11126(x0, x1):
    v2 = torch.log1p(torch.abs(x0))
    return v2


_make_p11_11126 = [
    (77, lambda: [_special(torch.randn((4, 10, )))[..., ::2], _special(torch.randn((4, 5, )))]),
]
_check('p11_11126', p11_11126, torch.compile(p11_11126), _make_p11_11126)


def p11_13655(x0):
    v0 = torch.where(x0 > 0, x0, x0)
    v1 = torch.sqrt(v0)
    v2 = v0.int()
    v3 = torch.any(v2, 0)
    v4 = torch.copysign(v3, v1)
    return v4


_make_p11_13655 = [
    (77, lambda: [_special(torch.randn((1, 5, 2, )))]),
]
_check('p11_13655', p11_13655, torch.compile(p11_13655), _make_p11_13655)


def p11_1394(x0):
    v0 = torch.log1p(torch.abs(x0))
    return v0


_make_p11_1394 = [
    (77, lambda: [_special(torch.randn((4, 2, 4, )))[..., ::2]]),
]
_check('p11_1394', p11_1394, torch.compile(p11_1394), _make_p11_1394)


def p11_19133(x0):
    v0 = x0 ** 0.5
    v4 = torch.copysign(x0, v0)
    return v4


_make_p11_19133 = [
    (77, lambda: [torch.randn((2, 4, 5, )).transpose(-1, -2)]),
]
_check('p11_19133', p11_19133, torch.compile(p11_19133), _make_p11_19133)


def p11_34060(x0):
    v0 = torch.log1p(torch.abs(x0))
    return v0


_make_p11_34060 = [
    (77, lambda: [_special(torch.randn((3, 4, )))[..., ::2]]),
    (78, lambda: [_special(torch.randn((5, 4, )))[..., ::2]]),
    (79, lambda: [_special(torch.randn((7, 4, )))[..., ::2]]),
]
_check('p11_34060', p11_34060, torch.compile(p11_34060), _make_p11_34060)


def p11_3957(x0, x1):
    v0 = torch.sqrt(x1)
    v2 = torch.copysign(x0, v0)
    return v2


_make_p11_3957 = [
    (77, lambda: [torch.randn((3, 4, ))[..., ::2], torch.randn(())]),
]
_check('p11_3957', p11_3957, torch.compile(p11_3957), _make_p11_3957)


def p11_40137(x0, x1):
    v2 = F.leaky_relu(x1, 0.2)
    v3 = v2 ** 0.5
    v4 = torch.copysign(x0, v3)
    return v4


_make_p11_40137 = [
    (77, lambda: [torch.randint(-5, 6, (4, 5, 4, ))[..., ::2], torch.randn((4, 2, 5, )).transpose(-1, -2)]),
]
_check('p11_40137', p11_40137, torch.compile(p11_40137), _make_p11_40137)

print('done')
