# expect: exit=124 stderr="timed out"
# args: --timeout 3
import torch

@torch.compile
def f(x):
    while True:
        x = x + 1
    return x

f(torch.ones(1))
