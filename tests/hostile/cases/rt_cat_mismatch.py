# expect: exit=1 stderr="RuntimeError" stderr="Sizes of tensors must match"
import torch
print(torch.cat([torch.zeros(2, 3), torch.zeros(2, 4)]))
