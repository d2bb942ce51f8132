# expect: exit=1 stderr="RecursionError"
import torch

@torch.compile
def f(x, n):
    return f(x * 2, n + 1)

f(torch.ones(2), 0)
