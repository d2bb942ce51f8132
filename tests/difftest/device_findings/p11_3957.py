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


def p11_3957(x0, x1):
    v0 = torch.sqrt(x1)
    v2 = torch.copysign(x0, v0)
    return v2


_make_p11_3957 = [
    (77, lambda: [torch.randn((3, 4, ))[..., ::2], torch.randn(())]),
]
_check('p11_3957', p11_3957, torch.compile(p11_3957), _make_p11_3957)

print('done')
