import torch

@torch.compile
def combine(xs):
    total = torch.stack(xs).sum(dim=0)
    for t in xs:
        total = total + t.relu()
    return total

a = torch.ones(3)
b = torch.full((3,), -2.0)
c = torch.arange(3.0)
print(combine([a, b]))
print(combine([a, b, c]))
print(combine([c, b, a]))
print(combine([b, a]))
