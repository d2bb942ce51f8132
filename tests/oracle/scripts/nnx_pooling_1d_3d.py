# covers: nn.MaxPool1d / MaxPool3d / AvgPool1d / AvgPool3d (repr, return_indices, ceil_mode, padding), F.max_pool1d/3d, F.avg_pool1d/3d, F.max_pool2d_with_indices
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
print([round(t, 4) for t in o[0, 0, 0, 0].tolist()])
v3.grad = None
o.sum().backward()
print(v3.grad[0, 1, 0])
p3 = F.avg_pool3d(v3, 3, stride=2, padding=1, count_include_pad=False, ceil_mode=True)
print([round(t, 4) for t in p3.flatten().tolist()[:8]])
print(F.max_pool2d_with_indices(torch.arange(16.0).reshape(1, 1, 4, 4), 2)[1])
try:
    nn.MaxPool1d(3)(torch.randn(1, 2, 2))
except RuntimeError:
    print('RuntimeError')
