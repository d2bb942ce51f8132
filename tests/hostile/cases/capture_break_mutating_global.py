# expect: exit=0 stdout="[1, 1]"
import torch

seen = []

@torch.compile
def f(x):
    seen.append(1)
    print("break")
    return x + 1

f(torch.ones(2))
f(torch.ones(2))
print(seen)
