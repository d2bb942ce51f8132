import torch

@torch.compile
def f(xs):
    total = sum(t * 2 for t in xs)
    return total + 1

print(f([torch.ones(2), torch.full((2,), 3.0)]))
