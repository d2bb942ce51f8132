import torch

@torch.compile
def f(x):
    return x * 2

x = torch.ones(2)
print(f(x))
with torch.no_grad():
    print(f(x))
