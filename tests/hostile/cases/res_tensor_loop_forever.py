# expect: exit=124 stderr="timed out"
# args: --timeout 2
import torch
x = torch.zeros(64, 64)
while True:
    x = torch.tanh(x @ x + 1)
