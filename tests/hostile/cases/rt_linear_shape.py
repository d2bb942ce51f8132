# expect: exit=1 stderr="RuntimeError" stderr="line 5, in <module>"
import torch
from torch import nn
layer = nn.Linear(3, 4)
print(layer(torch.randn(2, 5)))
