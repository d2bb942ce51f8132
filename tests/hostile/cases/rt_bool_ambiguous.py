# expect: exit=1 stderr="RuntimeError: Boolean value of Tensor with more than one value is ambiguous"
import torch
if torch.tensor([1, 2]):
    print('yes')
