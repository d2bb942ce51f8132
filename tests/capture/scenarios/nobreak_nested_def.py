import torch

@torch.compile
def f(x):
    def inner(t):
        return t * 2
    scale = 3
    g = lambda t: t + scale
    for i in range(3):
        x = inner(x) + i
    return g(x)

print(f(torch.ones(2)))
