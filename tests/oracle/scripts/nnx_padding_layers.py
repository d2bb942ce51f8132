# covers: ReflectionPad1d/2d/3d, ReplicationPad1d/2d/3d, ZeroPad2d, ConstantPad1d/2d/3d (repr, forward, backward), F.pad modes
import torch
import torch.nn as nn
import torch.nn.functional as F

x1 = torch.arange(5.0).reshape(1, 1, 5).requires_grad_()
x2 = torch.arange(9.0).reshape(1, 1, 3, 3).requires_grad_()
x3 = torch.arange(8.0).reshape(1, 1, 2, 2, 2)
mods = [nn.ReflectionPad1d(2), nn.ReflectionPad1d((1, 3)), nn.ReplicationPad1d((2, 1)), nn.ConstantPad1d(2, 3.5),
        nn.ConstantPad1d((1, 0), -1)]
for m in mods:
    print(m)
    print(m(x1).detach())
mods2 = [nn.ReflectionPad2d(1), nn.ReflectionPad2d((1, 2, 0, 1)), nn.ReplicationPad2d((1, 1, 2, 0)), nn.ZeroPad2d(1),
         nn.ZeroPad2d((0, 1, 1, 0)), nn.ConstantPad2d((1, 0, 0, 1), 2.0), nn.ConstantPad2d(1, 7)]
for m in mods2:
    print(m)
    print(m(x2).detach())
mods3 = [nn.ReflectionPad3d(1), nn.ReplicationPad3d((1, 0, 0, 1, 1, 0)), nn.ConstantPad3d(1, 0.5)]
for m in mods3:
    print(m)
    print(m(x3)[0, 0, 0])
y = nn.ReflectionPad2d((2, 1, 1, 2))(x2)
(y * torch.arange(float(y.numel())).reshape(y.shape)).sum().backward()
print(x2.grad)
z = nn.ReplicationPad1d(3)(x1)
(z * z).sum().backward()
print(x1.grad)
print(F.pad(x2, (1, 1, 2, 0), mode='circular').detach())
print(F.pad(x2, (1, 1, 1, 1), value=-2.0).detach())
print(nn.ZeroPad2d(2)(torch.ones(2, 2)).shape)
print(nn.ReflectionPad2d(1)(torch.ones(3, 2, 2)).shape)
print(list(nn.ReflectionPad2d(1).state_dict().keys()))
try:
    nn.ReflectionPad1d(5)(x1)
except RuntimeError:
    print('RuntimeError')
