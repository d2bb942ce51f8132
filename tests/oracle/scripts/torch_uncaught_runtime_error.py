# covers: a LibTorch error (matmul shape mismatch) escaping to the top level after output: stdout must match, exit code 1
import torch

torch.manual_seed(49)
a = torch.randn(2, 3)
b = torch.randn(3, 4)
print((a @ b).shape)
try:
    a @ a
except RuntimeError as e:
    print("caught RuntimeError from matmul")
c = torch.randn(4, 5)
print("about to fail")
d = a @ c
print("unreachable", d)
