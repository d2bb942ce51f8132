import torch

def make_scaler(t):
    @torch.compile
    def scale(x):
        return x * t + t.sum()
    return scale

s1 = make_scaler(torch.ones(3))
x = torch.arange(3.0)
print(s1(x))
print(s1(x + 1))
s2 = make_scaler(torch.full((3,), 2.0))
print(s2(x))
print(s1(x))
