# expect: exit=1 stderr="ValueError: Invalid learning rate: -0.1"
# A wrong call into the torch API: PyTorch 1.13's error (checked with python3 + torch 1.13), a clean exit.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
p = nn.Parameter(torch.zeros(2))
torch.optim.Adam([p], lr=-0.1)
