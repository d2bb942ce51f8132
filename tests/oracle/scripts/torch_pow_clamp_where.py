# covers: pow (tensor and scalar exponents), abs, clamp/clip (min, max, both), where (tensor and scalar branches), sign, maximum/minimum
import torch

torch.manual_seed(8)
x = torch.randn(2, 4)
print(x)
print(torch.pow(x, 2), x.pow(3), x ** 0.5, torch.pow(2.0, torch.tensor([0.0, 1.0, 10.0])))
print(x.abs().pow(0.5), torch.pow(x.abs(), torch.tensor([1.0, 2.0, 0.5, 0.0])))
print(torch.abs(x), x.abs(), abs(x), torch.tensor([-3, 3]).abs())
print(torch.clamp(x, min=-0.5), x.clamp(max=0.5), x.clamp(-0.2, 0.2), torch.clip(x, 0, 1))
print(torch.tensor([1, 5, 10]).clamp(2, 8), torch.clamp(x, min=torch.zeros(4)))
print(torch.where(x > 0, x, torch.zeros_like(x)))
print(torch.where(x > 0, x, 0.0), torch.where(x < 0, -1.0, 1.0))
print(torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), torch.tensor([10, 20])))
print(torch.where(x > 0.5))
print(torch.sign(x), x.sign() * x.abs() == x)
print(torch.maximum(x, torch.tensor(0.0)), torch.minimum(x, torch.full_like(x, 0.1)))
i = torch.tensor([2, 3, 4])
print(i ** 2, i.pow(2).dtype, 2 ** i, torch.pow(i, 0.5))
