# expect: exit=1 stderr="RuntimeError: input.size(-1) must be equal to input_size. Expected 4, got 5"
# A wrong call into the torch API: PyTorch 1.13's error (checked with python3 + torch 1.13), a clean exit.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
lstm = nn.LSTM(4, 8)
lstm(torch.randn(3, 2, 5))
