# An in-place op between two reads of the same input: reads before it see the old values.
import torch


def f(x):
    a = x * 2
    x.add_(1)
    b = x * 3
    return a + b


cf = torch.compile(f)
for _ in range(2):
    x = torch.ones(4)
    y = torch.ones(4)
    print(torch.equal(cf(x), f(y)), torch.equal(x, y))
