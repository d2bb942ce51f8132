# hypot, copysign, diagonal and the hard/soft activations, eager against PyTorch.
import torch
import torch.nn.functional as F

torch.manual_seed(3)
x = torch.randn(3, 4)
y = torch.randn(3, 4)
print(torch.hypot(x, y))
print(torch.copysign(x, y), torch.copysign(x, -1.0), x.copysign(y))
print(x.diagonal(), torch.diagonal(x, 1), x.diagonal(offset=-1), torch.randn(2, 3, 3).diagonal(0, 1, 2))
print(F.softsign(x))
print(F.hardswish(x), F.hardsigmoid(x), F.mish(x))
z = x.clone()
F.hardswish(z, True)
print(z)
z = x.clone()
F.hardsigmoid(z, inplace=True)
print(z)
z = x.clone()
F.relu6(z * 4, inplace=False)
w = z * 4
F.relu6(w, True)
print(w)
w = x * 3
F.hardtanh(w, -0.5, 0.5, True)
print(w)
w = x.clone()
F.elu(w, 1.5, True)
print(w)
