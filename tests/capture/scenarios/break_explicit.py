import torch

@torch.compile
def f(x):
    a = x + 1
    torch._dynamo.graph_break()
    return a * 2

print(f(torch.ones(2)))
