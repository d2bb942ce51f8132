# expect: exit=1 stderr="ValueError: batch_size should be a positive integer value, but got batch_size=0"
# A wrong call into the torch API: PyTorch 1.13's error (checked with python3 + torch 1.13), a clean exit.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
ds = TensorDataset(torch.zeros(4, 2))
DataLoader(ds, batch_size=0)
