# expect: exit=1 stderr="Traceback (most recent call last):" stderr="in forward" stderr="ValueError: negative input"
import torch
from torch import nn


class Check(nn.Module):
    def forward(self, x):
        if (x < 0).any():
            raise ValueError("negative input")
        return x


m = Check()
print(m(torch.ones(2)))
print(m(-torch.ones(2)))
