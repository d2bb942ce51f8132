import torch

@torch.compile
def f(x):
    y = x.sin()
    s = y.sum().item()
    return y * s

torch.manual_seed(0)
print(f(torch.randn(4)))
