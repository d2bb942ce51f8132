# expect: exit=1 stderr="SyntaxError: '(' was never closed" stderr="line 3"
import torch
x = torch.zeros((2, 3)
print(x)
