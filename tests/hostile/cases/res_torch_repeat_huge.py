# expect: exit=1 stderr="RuntimeError" stderr="memory"
import torch
x = torch.ones(2).repeat(10**12)
print(x.shape)
