# expect: exit=1 stderr="RuntimeError" stderr="memory"
import torch
x = torch.randn(1 << 20, 1 << 20)
print(x.shape)
