# expect: exit=1 stderr="TypeError: descriptor '__add__' for 'torch._C._TensorBase' objects doesn't apply to a 'int' object"
# A wrong call into the torch API: PyTorch 1.13's error (checked with python3 + torch 1.13), a clean exit.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
x = torch.ones(2)
print(x.__add__(1))
torch.Tensor.__add__(1, 2)
