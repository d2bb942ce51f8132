import torch

@torch.compile
def f(x):
    a = x + 1
    print("first break")
    b = a * 2
    s = b.sum().item()
    return b / s

print(f(torch.ones(4)))
print(f(torch.arange(4.0)))
