import torch

@torch.compile
def f(x):
    y = x * 2
    print("halfway")
    return y + 1

torch.manual_seed(0)
print(f(torch.ones(3)))
print(f(torch.ones(3)))
