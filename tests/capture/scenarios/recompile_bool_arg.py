import torch

@torch.compile
def f(x, flag):
    if flag:
        return x.exp()
    return x.log()

print(f(torch.ones(2), True))
print(f(torch.ones(2), False))
print(f(torch.ones(2), True))
