import torch

def g(t):
    return t.sin() + t.cos()

inner = torch.compile(g)

@torch.compile
def f(x):
    y = inner(x * 2)
    return y * 2 + 1

x = torch.zeros(3)
print(f(x))
print(f(x))
print(inner(x))
