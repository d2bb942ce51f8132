import torch

@torch.compiler.disable
def helper(t):
    return t * 10

@torch.compile
def f(x):
    a = x + 1
    b = helper(a)
    return b - 1

print(f(torch.ones(2)))
