# expect: exit=0 stdout="done\n"
import torch
for i in range(20000):
    t = torch.randn(16, 16) @ torch.randn(16, 16)
print("done")
