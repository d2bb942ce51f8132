# expect: exit=1 stderr="RuntimeError: Given groups=1, weight of size [8, 3, 3, 3], expected input[1, 4, 8, 8] to have 3 channels, but got 4 channels instead"
# A wrong call into the torch API: PyTorch 1.13's error (checked with python3 + torch 1.13), a clean exit.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
conv = nn.Conv2d(3, 8, 3)
conv(torch.randn(1, 4, 8, 8))
