# expect: exit=1 stderr="RuntimeError" stderr="shape '[7]' is invalid for input of size 6"
import torch
x = torch.zeros(2, 3)
print(x.view(7))
