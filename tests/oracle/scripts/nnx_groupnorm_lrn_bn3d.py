# covers: nn.GroupNorm, nn.LocalResponseNorm, nn.BatchNorm3d, F.group_norm, F.local_response_norm, InstanceNorm1d/3d (repr, forward, backward, state_dict)
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(13)
gn = nn.GroupNorm(2, 4)
print(gn, nn.GroupNorm(1, 3, eps=1e-3, affine=False))
print(list(gn.state_dict().keys()), gn.weight, gn.bias)
x = torch.randn(2, 4, 3, 3, requires_grad=True)
y = gn(x)
print(y[0, 1].detach())
(y * torch.arange(4.0).view(1, 4, 1, 1)).sum().backward()
print(gn.weight.grad, gn.bias.grad)
print(x.grad[1, 3])
print(F.group_norm(torch.randn(3, 6, 5), 3).shape)
try:
    nn.GroupNorm(3, 4)
except ValueError as e:
    print('ValueError', e)
try:
    F.group_norm(torch.randn(1, 2), 2)
except ValueError as e:
    print('ValueError', e)
lrn = nn.LocalResponseNorm(3)
print(lrn, nn.LocalResponseNorm(2, alpha=0.01, beta=0.5, k=2.0))
z = torch.randn(2, 5, 3, 3, requires_grad=True)
o = lrn(z)
print(o[0, :, 0, 0].tolist())
o.sum().backward()
print(z.grad[1, :, 1, 1].tolist())
print(F.local_response_norm(torch.randn(2, 4, 6), 2, alpha=0.1)[0, :, 0].tolist())
print(F.local_response_norm(torch.randn(1, 4, 2, 2, 2), 3, k=0.5)[0, :, 1, 0, 1].tolist())
try:
    F.local_response_norm(torch.randn(2, 3), 2)
except ValueError:
    print('ValueError')
bn = nn.BatchNorm3d(2)
print(bn, list(bn.state_dict().keys()))
v = torch.randn(2, 2, 2, 3, 3) * 2 + 1
out = bn(v)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
print(out[0, 0, 0].detach())
bn.eval()
print(bn(v)[1, 1, 1].detach())
try:
    bn(torch.randn(2, 2, 3))
except ValueError as e:
    print('ValueError', e)
i1 = nn.InstanceNorm1d(3, affine=True)
print(i1)
s = torch.randn(2, 3, 5)
print(i1(s)[1].detach())
print(i1(torch.randn(3, 5)).shape)
i3 = nn.InstanceNorm3d(2, track_running_stats=True)
print(i3, list(i3.state_dict().keys()))
print(i3(torch.randn(1, 2, 2, 2, 3))[0, 1, 0].detach())
print(i3.running_mean)
