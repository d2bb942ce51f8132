import torch
import torch.nn.functional as F


@torch.compile
def attend(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


torch.manual_seed(0)
q, k, v = (torch.randn(2, 4, 8, 16) for _ in range(3))
out = attend(q, k, v)
print(out.shape, round(out.sum().item(), 3))
q, k, v = (torch.randn(2, 4, 6, 16) for _ in range(3))
out = attend(q, k, v)
print(out.shape, round(out.sum().item(), 3))
