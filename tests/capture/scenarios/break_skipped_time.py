import torch
import math

@torch.compile
def f(x):
    y = x * math.pi
    r = math.floor(y.shape[0] / 2)
    return y[:r].sum() + math.sqrt(2.0)

print(f(torch.ones(4)))
