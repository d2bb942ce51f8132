import torch

@torch.compile
def f(x):
    y = x + 1
    torch.manual_seed(0)
    return y * torch.rand(3)

print(f(torch.ones(3)))
