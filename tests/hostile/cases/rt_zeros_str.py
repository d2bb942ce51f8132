# expect: exit=1 stderr="TypeError"
import torch
print(torch.zeros('a'))
