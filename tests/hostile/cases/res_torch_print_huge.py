# expect: exit=0
import torch
x = torch.zeros(3000, 3000)
print(x)
print(x.shape)
