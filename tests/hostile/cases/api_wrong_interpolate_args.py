# expect: exit=1 stderr="ValueError: only one of size or scale_factor should be defined"
# A wrong call into the torch API: PyTorch 1.13's error (checked with python3 + torch 1.13), a clean exit.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
F.interpolate(torch.randn(1, 1, 4, 4), size=8, scale_factor=2)
