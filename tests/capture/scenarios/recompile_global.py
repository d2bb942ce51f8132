import torch

step = 0

@torch.compile
def f(x):
    return x + step

for i in range(3):
    step = i
    print(f(torch.ones(2)))
