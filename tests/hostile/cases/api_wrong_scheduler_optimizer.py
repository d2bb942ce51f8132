# expect: exit=1 stderr="TypeError: Linear is not an Optimizer"
# A wrong call into the torch API: PyTorch 1.13's error (checked with python3 + torch 1.13), a clean exit.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
torch.optim.lr_scheduler.StepLR(nn.Linear(2, 2), step_size=1)
