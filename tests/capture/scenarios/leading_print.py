import torch

@torch.compile
def f(x):
    print("start")
    return x * 2

print(f(torch.ones(2)))
