# expect: exit=1 stderr="RuntimeError" stderr="negative dimension -1"
import torch
print(torch.zeros(-1))
