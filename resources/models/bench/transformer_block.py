# bench anchor transformer_block: a pre-norm block (LayerNorm, qkv Linear, 8-head attention with an
# explicit q @ k^T, softmax, @ v, proj, residual; LayerNorm, GELU MLP 512->2048->512, residual)
# see README.md here and ../shared/PERF-ANCHORS.md for torch.compile's figures
import math
import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        # (B, T, C) -> (B, heads, T, head_dim), as in nanoGPT
        q = q.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        att = torch.softmax((q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim)), dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, n_heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


torch.manual_seed(0)
block = Block(512, 8)
compiled = torch.compile(block)
x = torch.randn(8, 256, 512)

with torch.no_grad():
    ref = block(x)  # eager reference
    # first call captures and compiles; the later calls replay the cached graph
    for _ in range(3):
        out = compiled(x)

print("output shape:", tuple(out.shape))
print("matches eager:", torch.allclose(out, ref, rtol=1e-4, atol=1e-5))
