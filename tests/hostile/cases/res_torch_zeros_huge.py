# expect: exit=1 stderr="RuntimeError" stderr="memory"
import torch
x = torch.zeros(10**12)
print(x.shape)
