import torch

@torch.compile
def f(x, n):
    y = x * 2
    if n < 0:
        raise ValueError("n must be non-negative")
    return y + n

print(f(torch.ones(2), 3))
try:
    f(torch.ones(2), -1)
except ValueError as e:
    print("caught:", e)
print(f(torch.ones(2), 3))
