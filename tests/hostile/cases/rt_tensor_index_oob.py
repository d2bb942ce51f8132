# expect: exit=1 stderr="IndexError: index 5 is out of bounds for dimension 0 with size 3"
import torch
print(torch.zeros(3)[5])
