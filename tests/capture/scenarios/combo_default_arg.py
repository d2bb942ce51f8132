import torch

@torch.compile
def f(x, n=2):
    return x * n - 1

x = torch.ones(2)
print(f(x))
print(f(x))
print(f(x, 3))
print(f(x, n=5))
print(f(x))
