import torch


@torch.compile
def f(x, n):
    for _ in range(n):
        x = x + 1
    return x


x = torch.ones(3)
for i in range(1, 6):
    f(x, i)
print("done")
