# covers: multi-head causal self-attention written out (q @ k.transpose(-2, -1), scale, masked_fill, softmax, @ v), compared with a compiled copy; shapes per head
import math
import torch
from torch import nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim)
        self.register_buffer("mask", torch.tril(torch.ones(16, 16)).view(1, 1, 16, 16))

    def forward(self, x):
        B, T, C = x.size()
        hd = C // self.heads
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = [t.view(B, T, self.heads, hd).transpose(1, 2) for t in (q, k, v)]
        att = q @ k.transpose(-2, -1) / math.sqrt(hd)
        att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(B, T, C)
        return self.out(y), att


torch.manual_seed(45)
attn = SelfAttention(dim=12, heads=3)
print(attn)
x = torch.randn(2, 6, 12)
y, att = attn(x)
print(y.shape, att.shape)
print(att[0, 1])
print(att.sum(-1)[1, 2], bool((att.triu(1) == 0).all()))
print(y[1, -1])
compiled = torch.compile(attn)
y2, att2 = compiled(x)
print(torch.allclose(y, y2, atol=1e-6), torch.allclose(att, att2))
y3, _ = attn(x[:, :3])
print(torch.allclose(y3, y[:, :3], atol=1e-6))
print([k for k in attn.state_dict()], [k for k in compiled.state_dict()][:2])
