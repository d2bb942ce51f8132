# expect: exit=1 stderr="RuntimeError" stderr="2x3 and 4x5"
import torch
y = torch.randn(2, 3) @ torch.randn(4, 5)
print(y)
