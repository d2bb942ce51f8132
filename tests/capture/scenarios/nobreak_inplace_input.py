import torch

@torch.compile
def f(x):
    x.add_(1)
    return x * 2

t = torch.zeros(3)
print(f(t))
print(t)
