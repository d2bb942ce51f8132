# expect: exit=0 stdout="tensor([200001.])"
import torch

@torch.compile
def f(x):
    for i in range(200000):
        x = x + 1
    return x

print(f(torch.ones(1)))
