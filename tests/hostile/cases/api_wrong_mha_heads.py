# expect: exit=1 stderr="AssertionError: embed_dim must be divisible by num_heads"
# A wrong call into the torch API: PyTorch 1.13's error (checked with python3 + torch 1.13), a clean exit.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
nn.MultiheadAttention(10, 3)
