# expect: exit=1 stderr="RuntimeError" stderr="leaf Variable that requires grad"
import torch
w = torch.zeros(3, requires_grad=True)
w.add_(1)
