import torch

@torch.compile
def f(x):
    y = x * 3
    vals = y.tolist()
    return y + len(vals)

print(f(torch.arange(4, dtype=torch.float32)))
