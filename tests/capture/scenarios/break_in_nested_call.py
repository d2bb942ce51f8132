import torch

def helper(t):
    u = t * 2
    print("in helper")
    return u + 1

@torch.compile
def f(x):
    a = x.sin()
    b = helper(a)
    return b.cos()

print(f(torch.zeros(2)))
