import torch

@torch.compile
def f(x):
    for i in range(3):
        x = x * 2
        print(i)
    return x + 1

print(f(torch.ones(2)))
