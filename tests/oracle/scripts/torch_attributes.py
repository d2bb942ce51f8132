# covers: shape, size(), dim(), ndim, numel(), dtype, device, item(), tolist(), len(), is_floating_point, requires_grad, nbytes-free metadata
import torch

torch.manual_seed(11)
x = torch.randn(2, 3, 4)
print(x.shape, x.size(), x.size(0), x.size(-1), x.shape[1], x.shape[-2:], tuple(x.shape), list(x.shape))
print(x.dim(), x.ndim, x.numel(), len(x), x.dtype, x.device, x.is_floating_point(), x.requires_grad)
s = torch.tensor(3.5)
print(s.shape, s.dim(), s.numel(), s.item(), type(s.item()).__name__, float(s), int(s))
i = torch.tensor(7)
print(i.item(), type(i.item()).__name__, int(i) + 1, i.tolist())
b = torch.tensor(True)
print(b.item(), type(b.item()).__name__, bool(b))
print(torch.tensor([1.5, 2.25]).tolist(), torch.arange(6).view(2, 3).tolist(), torch.tensor([True, False]).tolist())
print(x[0, 0].tolist(), [round(v, 4) for v in x[1, 2].tolist()])
f16 = torch.tensor([0.1], dtype=torch.float16)
print(f16.item(), torch.tensor([0.1]).item(), torch.tensor([0.1], dtype=torch.float64).item())
print(torch.tensor(1e-8).item(), torch.tensor(123456.789).item(), torch.tensor(2 ** 40).item())
n, c, h = x.shape
print(n, c, h, n * c * h == x.numel())
empty = torch.zeros(0, 3)
print(empty.shape, empty.numel(), empty.tolist(), len(empty))
for row in torch.arange(6).view(3, 2):
    print(row, row.tolist(), row.sum().item())
