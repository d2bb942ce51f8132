# covers: F.interpolate (nearest / linear / bilinear / trilinear / area, size & scale_factor, align_corners), nn.Upsample, UpsamplingNearest2d, UpsamplingBilinear2d, F.upsample*; grad_fn names and exact values of the ATen kernels 1.13 calls
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)
x = torch.arange(12.0).reshape(1, 1, 3, 4).requires_grad_()
print(F.interpolate(x, scale_factor=2).detach())
print(F.interpolate(x, size=(5, 7)).detach())
print(F.interpolate(x, scale_factor=(1.5, 0.5), mode='nearest').detach())
b = F.interpolate(x, size=(4, 6), mode='bilinear', align_corners=False)
print(b.detach())
b.sum().backward()
print(x.grad)
print(F.interpolate(x, size=(5, 5), mode='bilinear', align_corners=True).detach())
print(F.interpolate(x, scale_factor=2, mode='bilinear').detach())
print(F.interpolate(x, scale_factor=1.7, mode='bilinear', recompute_scale_factor=True).detach())
s = torch.tensor([[[1.0, 2.0, 4.0, 8.0]]])
print(F.interpolate(s, size=7, mode='linear'))
print(F.interpolate(s, scale_factor=2, mode='linear', align_corners=True))
print(F.interpolate(s, size=6, mode='nearest'))
print(F.interpolate(s, size=2, mode='area'))
v = torch.arange(8.0).reshape(1, 1, 2, 2, 2)
print(F.interpolate(v, scale_factor=2, mode='trilinear', align_corners=False)[0, 0, 1])
print(F.interpolate(v, size=(3, 3, 3), mode='nearest')[0, 0, 2])
print(F.interpolate(torch.arange(16.0).reshape(1, 1, 4, 4), size=(2, 2), mode='area'))
up = nn.Upsample(scale_factor=2, mode='nearest')
print(up, nn.Upsample(size=(3, 4), mode='bilinear', align_corners=True), nn.Upsample(scale_factor=(2, 3)))
print(up(x).shape)
un = nn.UpsamplingNearest2d(scale_factor=2)
ub = nn.UpsamplingBilinear2d(size=(4, 5))
print(un, ub)
print(ub(x).detach())
r = torch.randn(2, 3, 5, 5, requires_grad=True)
o = F.interpolate(r, size=(3, 8), mode='bilinear')
o.pow(2).sum().backward()
print([round(v2, 3) for v2 in r.grad[0, 0, 0].tolist()])
try:
    F.interpolate(x, size=3, scale_factor=2)
except ValueError as e:
    print('ValueError', e)
try:
    F.interpolate(x, scale_factor=2, mode='nearest', align_corners=True)
except ValueError as e:
    print('ValueError', e)
try:
    F.interpolate(x, size=3, mode='linear')
except NotImplementedError as e:
    print('NotImplementedError', e)
try:
    F.interpolate(x)
except ValueError as e:
    print('ValueError', e)

# grad_fn names and exact values of the upsample_* kernels 1.13 calls
for t, kw in [(x, dict(scale_factor=2)), (x, dict(size=(5, 7))), (x, dict(size=(4, 6), mode='bilinear')),
              (x, dict(size=(5, 5), mode='bilinear', align_corners=True)),
              (x, dict(scale_factor=1.7, mode='bilinear', recompute_scale_factor=True)),
              (x, dict(size=(2, 2), mode='area'))]:
    o = F.interpolate(t, **kw)
    print(kw, type(o.grad_fn).__name__, o.reshape(-1)[:8].tolist())
s2 = torch.tensor([[[1.0, 2.0, 4.0, 8.0]]], requires_grad=True)
for kw in [dict(size=7, mode='linear'), dict(scale_factor=2.5, mode='linear', align_corners=True),
           dict(size=6, mode='nearest'), dict(size=3, mode='area')]:
    o = F.interpolate(s2, **kw)
    print(kw, type(o.grad_fn).__name__, o.reshape(-1).tolist())
v2 = torch.randn(1, 2, 2, 3, 2, requires_grad=True)
for kw in [dict(scale_factor=2, mode='trilinear'), dict(size=(3, 3, 3), mode='trilinear', align_corners=True),
           dict(size=(3, 4, 5), mode='nearest')]:
    o = F.interpolate(v2, **kw)
    print(kw, type(o.grad_fn).__name__, o.reshape(-1)[:8].tolist())
    print(torch.autograd.grad(o.pow(2).sum(), v2)[0].reshape(-1)[:6].tolist())
print(type(nn.Upsample(scale_factor=2)(x).grad_fn).__name__, type(nn.UpsamplingBilinear2d(scale_factor=2)(x).grad_fn).__name__)
