import torch
from torch import nn

class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 2.0

    def forward(self, x):
        return x * self.scale

m = Scale()
cm = torch.compile(m)
print(cm(torch.ones(2)))
m.scale = 3.0
print(cm(torch.ones(2)))
