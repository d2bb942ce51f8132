import torch

@torch.compile
def f(x, idx):
    y = x * 2
    for v in idx.tolist():
        y = y + v
    return y * 3

idx = torch.tensor([2, 0, 1])
print(f(torch.ones(3), idx))
print(f(torch.ones(3) * 2, idx))
