import torch

@torch.compile
def f(x):
    y = x - 1
    idx = torch.nonzero(y)
    return idx.sum() + y.sum()

print(f(torch.tensor([0.0, 1.0, 2.0, 1.0])))
