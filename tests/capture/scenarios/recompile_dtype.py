import torch

@torch.compile
def f(x):
    return x + 1

print(f(torch.ones(4)))
print(f(torch.ones(4, dtype=torch.float64)))
