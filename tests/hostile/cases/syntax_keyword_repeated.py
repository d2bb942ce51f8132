# expect: exit=1 stderr="SyntaxError: keyword argument repeated: dim"
import torch
y = torch.zeros(3).sum(dim=0, dim=0)
