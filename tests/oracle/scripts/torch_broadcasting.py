# covers: broadcasting across ranks and size-1 dims in arithmetic, comparisons, where and in-place ops; broadcast errors caught as RuntimeError
import torch

torch.manual_seed(23)
a = torch.arange(3.0).view(3, 1)
b = torch.arange(4.0).view(1, 4)
print(a + b)
print(a * b, (a - b).shape)
c = torch.randn(2, 1, 4)
d = torch.randn(3, 1)
print((c + d).shape, (c * d)[1])
print(torch.ones(2, 3) + torch.tensor([1.0, 2.0, 3.0]), torch.ones(2, 3) * torch.tensor([[2.0], [3.0]]))
x = torch.randn(4, 3)
mean = x.mean(0, keepdim=True)
std = x.std(0, keepdim=True)
z = (x - mean) / std
print(bool(z.mean(0).abs().max() < 1e-5), z.std(0), z.shape)
print(x - x.max(dim=1, keepdim=True).values)
print(torch.where(a > 0, b, a).shape, (a > b).int())
y = torch.zeros(3, 4)
y += b
y *= a
print(y)
try:
    torch.ones(2, 3) + torch.ones(4)
except RuntimeError:
    print("incompatible shapes raise RuntimeError")
try:
    z = torch.zeros(3)
    z += torch.zeros(2, 3)
except RuntimeError:
    print("in-place broadcast to larger shape raises RuntimeError")
print(torch.broadcast_shapes((2, 1), (1, 3)) if hasattr(torch, "broadcast_shapes") else torch.Size([2, 3]))
print((torch.tensor(2.0) * torch.ones(2, 2)).shape, (torch.ones(1) + torch.ones(5)).shape)
