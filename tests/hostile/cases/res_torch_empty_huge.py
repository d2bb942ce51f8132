# expect: exit=1 stderr="RuntimeError" stderr="memory"
import torch
x = torch.empty(1 << 40)
print(x.shape)
