# covers: nn.Linear construction (bias on/off), repr, weight/bias shapes and init values under a seed, forward on 1-D/2-D/3-D inputs, F.linear equivalence
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(28)
lin = nn.Linear(4, 3)
print(lin)
print(lin.weight)
print(lin.bias)
print(lin.in_features, lin.out_features, lin.weight.shape, lin.bias.shape, lin.weight.requires_grad)
nb = nn.Linear(3, 2, bias=False)
print(nb, nb.bias, nb.weight)
x = torch.randn(2, 4)
y = lin(x)
print(y)
print(torch.allclose(y, x @ lin.weight.t() + lin.bias), torch.allclose(y, F.linear(x, lin.weight, lin.bias)))
print(lin(torch.randn(4)).shape, lin(torch.randn(5, 2, 4)).shape, nb(y).shape)
print(repr(nn.Linear(1, 1)), str(nn.Linear(10, 20, bias=False)))
print(type(lin.weight).__name__, isinstance(lin.weight, nn.Parameter), lin.weight.dtype)
big = nn.Linear(256, 10)
print(f"{big.weight.abs().max().item():.6f}", f"{big.bias.mean().item():.6f}", big.weight[0, :4])
print(lin.forward(x).shape, lin(x).requires_grad)
