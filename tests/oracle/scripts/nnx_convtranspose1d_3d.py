# covers: nn.ConvTranspose1d / ConvTranspose3d (repr, init, output_padding, output_size), F.conv_transpose1d/2d/3d
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6)
t1 = nn.ConvTranspose1d(3, 2, 3, stride=2, padding=1, output_padding=1)
print(t1)
print(t1.weight[1], t1.bias)
x = torch.randn(2, 3, 4, requires_grad=True)
y = t1(x)
print(y.shape, y[0].detach())
y.pow(2).sum().backward()
print(x.grad[1])
print(t1(x, output_size=[2, 2, 7]).shape)
print(t1(torch.randn(3, 4)).shape)
print(nn.ConvTranspose1d(4, 4, 2, groups=4, bias=False, dilation=3))
t3 = nn.ConvTranspose3d(2, 2, (2, 2, 3), stride=2)
print(t3)
v = torch.randn(1, 2, 2, 2, 2, requires_grad=True)
o = t3(v)
print(o.shape)
print(o[0, 0, 1].detach())
o.sum().backward()
print(t3.weight.grad[0, 1, 0])
print(list(t3.state_dict().keys()))
w = torch.ones(1, 1, 2)
print(F.conv_transpose1d(torch.ones(1, 1, 3), w, stride=2))
print(F.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 2, 2, 2), bias=torch.tensor([0.5, -1.0]), stride=1, padding=0)[0, 1])
print(F.conv_transpose3d(torch.ones(1, 1, 1, 1, 1), torch.ones(1, 1, 2, 2, 2)).shape)
try:
    t1(x, output_size=[3])
except ValueError as e:
    print('ValueError', e)
