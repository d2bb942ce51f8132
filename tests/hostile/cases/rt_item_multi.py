# expect: exit=1 stderr="ValueError: only one element tensors can be converted to Python scalars"
import torch
print(torch.randn(3).item())
