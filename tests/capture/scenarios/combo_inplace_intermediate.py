import torch

@torch.compile
def f(x):
    y = x * 2
    y.add_(1)
    y.mul_(3)
    z = y.clone()
    z.clamp_(max=8.0)
    return y - z

x = torch.arange(4.0)
print(f(x))
print(x)
print(f(x - 1))
