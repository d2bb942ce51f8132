# covers: nn.Conv1d / nn.Conv3d (repr, seeded init, padding modes, padding='same', groups), F.conv1d/conv3d, backward, state_dict
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)
c1 = nn.Conv1d(3, 4, 3)
print(c1)
print(c1.weight[0], c1.bias)
x = torch.randn(2, 3, 7, requires_grad=True)
y = c1(x)
print(y.shape)
print(y[1].detach())
y.sum().backward()
print(x.grad[0])
print(c1.weight.grad[2])
print(list(c1.state_dict().keys()))
c1b = nn.Conv1d(4, 6, 5, stride=2, padding=2, dilation=1, groups=2, bias=False, padding_mode='circular')
print(c1b)
print(c1b(torch.randn(1, 4, 9)).shape)
c1c = nn.Conv1d(2, 2, 3, padding='same', dilation=2, padding_mode='reflect')
print(c1c)
print(c1c(torch.randn(1, 2, 8)).detach())
c1d = nn.Conv1d(2, 3, 2, padding=1, padding_mode='replicate')
print(c1d, c1d(torch.randn(2, 6)).shape)
print(nn.Conv1d(2, 3, 3, padding='valid'))
print(F.conv1d(torch.ones(1, 1, 5), torch.ones(1, 1, 2), stride=2))

c3 = nn.Conv3d(2, 3, (2, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1))
print(c3)
v = torch.randn(1, 2, 3, 5, 5, requires_grad=True)
o = c3(v)
print(o.shape)
print(o[0, 1, 0].detach())
o.sum().backward()
print(c3.bias.grad)
print(v.grad[0, 0, 1])
print(nn.Conv3d(2, 4, 3, groups=2, bias=False, dilation=2, padding_mode='zeros'))
c3s = nn.Conv3d(1, 1, 3, padding='same')
print(c3s(torch.randn(1, 1, 4, 4, 4)).shape)
print(F.conv3d(torch.ones(1, 1, 2, 2, 2), torch.ones(1, 1, 2, 2, 2)))
try:
    nn.Conv1d(3, 4, 3, groups=2)
except ValueError as e:
    print('ValueError', e)
try:
    nn.Conv1d(3, 4, 3, stride=2, padding='same')
except ValueError as e:
    print('ValueError', e)
try:
    c1(torch.randn(2, 5, 7))
except RuntimeError:
    print('RuntimeError')
