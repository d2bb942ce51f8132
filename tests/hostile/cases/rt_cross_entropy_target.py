# expect: exit=1 stderr="out of bounds"
import torch
import torch.nn.functional as F
print(F.cross_entropy(torch.randn(2, 3), torch.tensor([0, 5])))
