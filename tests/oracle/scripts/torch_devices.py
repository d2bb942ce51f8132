# covers: torch.device('cpu'), .device, device equality and printing, .to(device), .cpu(), device= arguments
import torch
from torch import nn

torch.manual_seed(0)
dev = torch.device("cpu")
print(dev, repr(dev), dev.type, dev.index, str(dev))
print(dev == torch.device("cpu"), torch.device("cpu", 0) == dev, torch.device("cpu:0"))
x = torch.randn(2, 2)
print(x.device, x.device == dev, x.device.type, x.is_cuda)
y = torch.zeros(3, device=dev)
z = torch.ones(2, device="cpu")
print(y.device, z.device, y, z)
print(x.to(dev).device, x.to("cpu").device, x.cpu().device, x.to(dev) is x)
m = nn.Linear(2, 2).to(dev)
print(next(m.parameters()).device, m.weight.device, m(x.to(dev)).device)
print(torch.arange(3, device=dev), torch.randn(2, device=dev).device)
w = x.to(device=dev, dtype=torch.float64)
print(w.dtype, w.device)
print(torch.cuda.is_available() in (True, False))
print(f"running on {dev}")
