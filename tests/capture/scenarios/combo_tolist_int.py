import torch

@torch.compile
def f(x, idx):
    y = x * 2
    ids = idx.tolist()
    return y + len(ids), ids

x = torch.ones(3)
idx = torch.tensor([2, 0, 1])
out, ids = f(x, idx)
print(out, ids)
out, ids = f(x + 1, idx)
print(out, ids)
