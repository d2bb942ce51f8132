import torch

W = torch.ones(3)

@torch.compile
def f(x):
    return x * W + 1

x = torch.arange(3.0)
print(f(x))
W = torch.full((3,), 2.0)
print(f(x))
W = torch.tensor([1.0, -1.0, 0.5])
print(f(x))
