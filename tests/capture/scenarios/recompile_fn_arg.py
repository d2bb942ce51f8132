import torch

@torch.compile
def f(x, act):
    return act(x) * 2

print(f(torch.ones(2), torch.relu))
print(f(torch.ones(2), torch.sigmoid))
