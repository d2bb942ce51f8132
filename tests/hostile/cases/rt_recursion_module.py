# expect: exit=1 stderr="RecursionError: maximum recursion depth exceeded"
import torch
from torch import nn


class Loop(nn.Module):
    def forward(self, x):
        return self(x * 1.0)


print(Loop()(torch.ones(2)))
