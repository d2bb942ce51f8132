import torch

@torch.compile
def f(x):
    y = x.cos()
    if y.sum() > 0:
        return y * 2
    return y - 1

print(f(torch.zeros(3)))
print(f(torch.full((3,), 3.0)))
