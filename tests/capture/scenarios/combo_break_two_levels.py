import torch

def inner(t):
    u = t * 3
    torch._dynamo.graph_break()
    return u - 1

def outer(t):
    v = t + 2
    w = inner(v)
    return w * 0.5

@torch.compile
def f(x):
    a = x.exp()
    b = outer(a)
    return b.sum()

print(round(f(torch.zeros(4)).item(), 4))
print(round(f(torch.ones(4)).item(), 4))
