import torch

@torch.compile
def f(xs):
    out = xs[0]
    for t in xs[1:]:
        out = out + t
    return out

print(f([torch.ones(2), torch.ones(2)]))
print(f([torch.ones(2), torch.ones(2), torch.ones(2)]))
