# expect: exit=1 stderr_re="(?s)line 6, in f.*ZeroDivisionError: division by zero"
import torch

@torch.compile
def f(x):
    return x * (1 / 0)

f(torch.ones(2))
