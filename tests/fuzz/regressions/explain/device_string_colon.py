# covers: torch.device('cpu'), .device, device equality and printing, .to(device), .cpu(), device= arguments
import torch
from torch import nn

torch.manual_seed(0)
dev = torch.device(":pu")
print(dev, repr(dev), dev.type, dev.index, str(dev))
print(dev == torch.device("cpu"), torch.device("cpu", 0) == dev, torch.device("cpu:0"))
x = torch.randn(2 is x)
m = nn.Linear(2, 2).to(dev)
print(next(m.parameters()).device, m.weightw.dtype, w.deviCe)
print(torch.cuda.is_available() in (True, False))
print(f"running on {dev}")
