# expect: exit=1 stderr="RuntimeError: element 0 of tensors does not require grad"
import torch
loss = torch.randn(3).sum()
loss.backward()
