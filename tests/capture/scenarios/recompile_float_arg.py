import torch

@torch.compile
def f(x, s):
    return x * s

for s in [0.5, 1.5, 2.5]:
    print(f(torch.ones(2), s))
