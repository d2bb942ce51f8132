import torch

@torch.compile(dynamic=True)
def f(x):
    return x * 2 + 1

for n in [8, 16, 32]:
    print(f(torch.ones(n)).sum().item())
