# expect: exit=1 stderr="AttributeError: 'list' object has no attribute 'detach'"
# A wrong call into the torch API: PyTorch 1.13's error (checked with python3 + torch 1.13), a clean exit.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
nn.Parameter([1.0, 2.0])
