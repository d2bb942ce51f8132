# Sizes unpacked inside an inlined call (not the compiled frame itself) and used in a view.
import torch.nn as nn


class Heads(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        B, T, C = x.size()
        y = self.proj(x).view(B, T, 2, C // 2).transpose(1, 2)
        return y.reshape(B * 2, T, C // 2).sum(-1)


def split_heads(x):
    B, T, C = x.shape
    return x.view(B * T, C) * T


torch.manual_seed(0)
_heads = Heads()
_check("inlined_module_sizes", _heads, torch.compile(_heads), [(k, lambda k=k: [torch.randn(k, 3, 8)]) for k in (2, 3, 4, 6)])
_check("frame_unpacked_sizes", split_heads, torch.compile(split_heads), [(k, lambda k=k: [torch.randn(k, k + 1, 4)]) for k in (2, 3, 4, 6)])
