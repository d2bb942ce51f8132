import torch

@torch.compile
def f(x):
    return x * 3

print(f(torch.ones(2)))
print(f(torch.ones(2, requires_grad=True)))
