import torch

@torch.compile
def f(x):
    a = x * 2
    b = x + 3
    c = a.sin()
    dead = x * 100
    torch._dynamo.graph_break()
    d = a * b + c
    return d.sum(), b.mean()

torch.manual_seed(0)
x = torch.randn(5)
s, m = f(x)
print(round(s.item(), 4), round(m.item(), 4))
s, m = f(x + 1)
print(round(s.item(), 4), round(m.item(), 4))
