# covers: F.interpolate bicubic / nearest-exact (1d/2d/3d) / antialias=True (bilinear, bicubic), grad_fn names of every mode, exact float values (full repr), nn.Upsample with the new modes, errors
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)
x = torch.randn(1, 2, 5, 6, requires_grad=True)
s1 = torch.randn(2, 3, 7, requires_grad=True)
v = torch.randn(1, 1, 3, 4, 5, requires_grad=True)
cases = [
    (s1, dict(size=11, mode='nearest')),
    (s1, dict(scale_factor=1.7, mode='nearest-exact')),
    (s1, dict(size=4, mode='linear', align_corners=True)),
    (x, dict(scale_factor=(1.5, 0.7), mode='nearest')),
    (x, dict(size=(9, 4), mode='nearest-exact')),
    (x, dict(size=(8, 9), mode='bilinear')),
    (x, dict(scale_factor=1.3, mode='bilinear', align_corners=True)),
    (x, dict(size=(8, 9), mode='bicubic')),
    (x, dict(size=(3, 10), mode='bicubic', align_corners=True)),
    (x, dict(scale_factor=2.5, mode='bicubic', recompute_scale_factor=True)),
    (x, dict(size=(3, 4), mode='bilinear', antialias=True)),
    (x, dict(size=(2, 3), mode='bicubic', antialias=True)),
    (x, dict(scale_factor=0.5, mode='bilinear', antialias=True, align_corners=True)),
    (x, dict(size=(7, 9), mode='bicubic', antialias=True)),
    (x, dict(size=(2, 2), mode='area')),
    (v, dict(size=(5, 6, 7), mode='nearest-exact')),
    (v, dict(scale_factor=(1.5, 2, 0.6), mode='nearest')),
    (v, dict(scale_factor=1.4, mode='trilinear')),
    (v, dict(size=(2, 2, 2), mode='area')),
]
for t, kw in cases:
    o = F.interpolate(t, **kw)
    print(kw, tuple(o.shape), type(o.grad_fn).__name__)
    print(o.reshape(-1)[:8].tolist())
    g = torch.autograd.grad(o.pow(2).sum(), t)[0]
    print(g.reshape(-1)[:6].tolist())
ramp = torch.arange(16.0).reshape(1, 1, 4, 4)
print(F.interpolate(ramp, size=(6, 6), mode='bicubic', align_corners=False))
print(F.interpolate(ramp, size=(7, 3), mode='nearest-exact'))
print(F.interpolate(ramp, size=(2, 2), mode='bilinear', antialias=True))
u = nn.Upsample(scale_factor=2, mode='bicubic', align_corners=False)
print(u, u(ramp)[0, 0, 0])
ue = nn.Upsample(size=(5, 5), mode='nearest-exact')
print(ue, ue(ramp))
for bad in [lambda: F.interpolate(s1, size=4, mode='bicubic'),
            lambda: F.interpolate(v, size=4, mode='bicubic'),
            lambda: F.interpolate(s1, size=4, mode='linear', antialias=True),
            lambda: F.interpolate(x, size=4, mode='nearest-exact', align_corners=False),
            lambda: F.interpolate(x, size=4, mode='cubic')]:
    try:
        bad()
    except (ValueError, NotImplementedError) as e:
        print(type(e).__name__, e)
