import torch

@torch.compile
def f(x):
    y = x * 2
    print("between graphs")
    return y + 1

print(f(torch.ones(4)))
print(f(torch.ones(4, dtype=torch.float64)))
print(f(torch.ones(4)))
