import torch

@torch.compile
def pad_rows(x):
    n = x.shape[0]
    pad = torch.zeros(n, 2)
    return torch.cat([x, pad], dim=1) + 1

for rows in [3, 5, 7]:
    y = pad_rows(torch.ones(rows, 4))
    print(y.shape, y.sum().item())
