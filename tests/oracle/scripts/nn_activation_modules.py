# covers: activation modules GELU (none/tanh), ReLU, SiLU, Sigmoid, Tanh, LeakyReLU, Softmax, Identity: reprs and outputs matching F.*
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(29)
x = torch.randn(2, 5)
mods = [nn.GELU(), nn.GELU(approximate="tanh"), nn.ReLU(), nn.SiLU(), nn.Sigmoid(), nn.Tanh(),
        nn.LeakyReLU(0.2), nn.Softmax(dim=-1), nn.Identity(), nn.ReLU(inplace=True)]
for m in mods:
    print(m)
for m in mods[:-1]:
    print(type(m).__name__, m(x)[0])
print(torch.allclose(nn.GELU()(x), F.gelu(x)), torch.allclose(nn.GELU("tanh")(x), F.gelu(x, approximate="tanh")))
print(torch.allclose(nn.SiLU()(x), F.silu(x)), torch.allclose(nn.Tanh()(x), torch.tanh(x)))
print(nn.Identity(54, unused="ok")(x) is x, nn.GELU().approximate, nn.LeakyReLU().negative_slope)
y = x.clone()
r = nn.ReLU(inplace=True)(y)
print(r is y, y.min().item() >= 0)
print(nn.Sequential(nn.Tanh(), nn.Sigmoid())(torch.zeros(2)))
