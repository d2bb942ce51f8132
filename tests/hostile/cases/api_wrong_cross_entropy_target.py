# expect: exit=1 stderr="RuntimeError: expected scalar type Long but found Float"
# A wrong call into the torch API: PyTorch 1.13's error (checked with python3 + torch 1.13), a clean exit.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
F.cross_entropy(torch.randn(3, 5), torch.tensor([1.0, 2.0, 3.0]))
