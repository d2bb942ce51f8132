# expect: exit=1 stderr="RuntimeError: Invalid device string: 'cuda:x'"
# A wrong call into the torch API: PyTorch 1.13's error (checked with python3 + torch 1.13), a clean exit.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
print(torch.zeros(2, device="cpu:0"))
torch.zeros(2, device="cuda:x")
