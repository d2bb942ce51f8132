import torch

@torch.compile
def f(x, bias=None):
    y = x * 2
    if bias is not None:
        y = y + bias
    return y

print(f(torch.ones(2)))
print(f(torch.ones(2), torch.ones(2)))
