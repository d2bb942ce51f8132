# covers: nn.BatchNorm2d repr, running_mean/var updates in train mode, num_batches_tracked, eval uses running stats, momentum, affine params
import torch
from torch import nn

torch.manual_seed(34)
bn = nn.BatchNorm2d(3)
print(bn)
print(bn.weight, bn.bias, bn.running_mean, bn.running_var, bn.num_batches_tracked)
x = torch.randn(4, 3, 5, 5) * 2 + 1
y = bn(x)
print(bool(y.mean((0, 2, 3)).abs().max() < 1e-5), y.var((0, 2, 3), unbiased=False))
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
for _ in range(4):
    bn(x)
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn.training)
e = bn(x)
manual = (x - bn.running_mean.view(1, 3, 1, 1)) / torch.sqrt(bn.running_var.view(1, 3, 1, 1) + bn.eps)
print(torch.allclose(e, manual, atol=1e-5), e[0, 0, 0])
before = bn.running_mean.clone()
bn(x * 10)
print(torch.equal(before, bn.running_mean))
bn2 = nn.BatchNorm2d(2, momentum=0.5, affine=False)
print(bn2, bn2.weight)
bn2(torch.ones(2, 2, 2, 2) * 4)
print(bn2.running_mean, bn2.running_var)
print(list(bn.state_dict().keys()))
print([n for n, _ in bn.named_parameters()], [n for n, _ in bn.named_buffers()])
