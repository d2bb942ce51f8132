# covers: nn.MaxPool1d / MaxPool3d / AvgPool1d / AvgPool3d (repr, return_indices, ceil_mode, padding), F.max_pool1d/3d, F.avg_pool1d/3d, F.max_pool2d_with_indices; grad_fn names and exact values of the ATen kernels 1.13 calls
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)
x = torch.randn(2, 3, 9, requires_grad=True)
mp = nn.MaxPool1d(3, stride=2, padding=1)
print(mp, nn.MaxPool1d(2, return_indices=True, ceil_mode=True, dilation=2))
y = mp(x)
print(y.detach())
y.sum().backward()
print(x.grad[0])
v, i = F.max_pool1d(x, 2, return_indices=True)
print(i[1])
print(F.max_pool1d_with_indices(x, 4, 3, ceil_mode=True)[1][0])
ap = nn.AvgPool1d(3, stride=2, padding=1, count_include_pad=False)
print(ap, nn.AvgPool1d(2))
print(ap(x).detach()[0])
print(F.avg_pool1d(x, 4, ceil_mode=True)[1].detach())
v3 = torch.randn(1, 2, 4, 5, 6, requires_grad=True)
m3 = nn.MaxPool3d(2, stride=(1, 2, 2), padding=(0, 1, 1), return_indices=True)
print(m3)
val, ind = m3(v3)
print(val.shape, ind[0, 1, 2])
val.sum().backward()
print(v3.grad[0, 0, 1])
print(nn.MaxPool3d((2, 3, 3), ceil_mode=True)(v3).detach()[0, 1])
print(F.max_pool3d(v3, 3, stride=2, dilation=1, return_indices=True)[1])
a3 = nn.AvgPool3d((2, 2, 3), stride=(2, 1, 2))
print(a3, nn.AvgPool3d(2, divisor_override=3, padding=1))
o = a3(v3)
print(o.shape)
print(o[0, 0, 0, 0].tolist())
v3.grad = None
o.sum().backward()
print(v3.grad[0, 1, 0])
p3 = F.avg_pool3d(v3, 3, stride=2, padding=1, count_include_pad=False, ceil_mode=True)
print(p3.flatten().tolist()[:8])
print(F.max_pool2d_with_indices(torch.arange(16.0).reshape(1, 1, 4, 4), 2)[1])
try:
    nn.MaxPool1d(3)(torch.randn(1, 2, 2))
except RuntimeError:
    print('RuntimeError')

# grad_fn names and exact values of the ATen kernels 1.13 calls
w = torch.randn(2, 2, 5, 6, 7, requires_grad=True)
for name, t in [('avg3d', F.avg_pool3d(w, 2)),
                ('avg3d_pad', F.avg_pool3d(w, (3, 2, 3), stride=(1, 2, 2), padding=1, ceil_mode=True,
                                           count_include_pad=False)),
                ('avg3d_div', F.avg_pool3d(w, 3, stride=None, divisor_override=5)),
                ('max3d', F.max_pool3d(w, (2, 3, 2), stride=2, padding=1, dilation=(1, 1, 2))),
                ('max3d_idx', F.max_pool3d(w, 2, return_indices=True)[0]),
                ('max2d_idx', F.max_pool2d(w[0], 3, stride=2, return_indices=True)[0])]:
    print(name, tuple(t.shape), type(t.grad_fn).__name__, t.reshape(-1)[:6].tolist())
    print(torch.autograd.grad(t.sum(), w)[0].reshape(-1)[:10].tolist())
print(F.max_pool3d_with_indices(w, 3, 2, 1)[1][1, 1, 0])
print(nn.MaxPool3d(2, return_indices=True)(w)[1][0, 0, 1])
