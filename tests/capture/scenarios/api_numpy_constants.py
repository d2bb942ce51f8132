import numpy as np
import torch


@torch.compile
def f(x):
    return x * np.pi + np.e


x = torch.ones(3)
print(f(x))
print(f(x * 2))
