# Inputs that are transposed, sliced or expanded views of other tensors.
import torch


def f(x, y):
    return (x * y + 1).softmax(-1) + x.sum(0)


cf = torch.compile(f)
base = torch.randn(8, 6)
for x, y in [(torch.randn(6, 8), torch.randn(8)), (base.t(), torch.randn(8)), (torch.randn(6, 16)[:, ::2], torch.randn(8)),
             (torch.randn(1, 8).expand(6, 8), torch.randn(8))]:
    print("contiguous" if x.is_contiguous() else "strided", torch.allclose(cf(x, y), f(x, y), rtol=1e-5, atol=1e-6))
