# expect: exit=1 stderr="TypeError: logcumsumexp() received an invalid combination of arguments - got (Tensor, list), but expected one of:"
# A wrong call into an operator bound from LibTorch's registry is PyTorch's TypeError, and a clean exit.
import torch
x = torch.randn(3)
try:
    torch.logaddexp(x)
except TypeError as e:
    print("TypeError:", e)
try:
    torch.kron(x, x, bogus=1)
except TypeError as e:
    print("TypeError:", e)
y = torch.logcumsumexp(x, [0])
