import torch

@torch.compile
def f(x):
    return x.relu()

print(f(torch.ones(4)).shape)
print(f(torch.ones(2, 2)).shape)
