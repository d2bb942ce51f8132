# expect: exit=1 stderr="TypeError: argmax(): argument 'keepdim' must be bool, not str"
# A wrong call into the torch API: PyTorch 1.13's error (checked with python3 + torch 1.13), a clean exit.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
x = torch.randn(2, 3)
print(x.argmax(dim=0, keepdim=True).shape)
x.argmax(dim=0, keepdim="yes")
