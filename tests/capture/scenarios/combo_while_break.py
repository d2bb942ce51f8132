import torch

@torch.compile
def f(x):
    i = 0
    while i < 3:
        x = x + 1
        torch._dynamo.graph_break()
        i += 1
    return x * 2

print(f(torch.zeros(2)))
print(f(torch.ones(2)))
