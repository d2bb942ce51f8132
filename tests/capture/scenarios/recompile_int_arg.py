import torch

@torch.compile
def f(x, c):
    return x * c

for c in [1, 2, 3, 4]:
    print(f(torch.ones(2), c))
