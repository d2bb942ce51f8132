import torch

@torch.compile
def f(x, scale=1.0):
    return x * scale + 1

x = torch.ones(3)
print(f(x, scale=2.0))
print(f(x, scale=2.0))
print(f(x, scale=3.0))
print(f(x, scale=4.5))
