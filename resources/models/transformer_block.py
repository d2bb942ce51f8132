# teaches: a pre-norm transformer block written out by hand (LayerNorm, qkv Linear, causal multi-head attention, GELU MLP), compiled
# look for: the attention chain (matmul, scale, masked_fill, softmax, matmul) and the MLP are fusion candidates; compiled and eager outputs agree
import math
import torch
from torch import nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, dim, n_heads, mlp_ratio=4):
        super().__init__()
        assert dim % n_heads == 0
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(
            nn.Linear(dim, mlp_ratio * dim),
            nn.GELU(),
            nn.Linear(mlp_ratio * dim, dim),
        )

    def attention(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim))
        mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
        att = att.masked_fill(~mask, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y), att

    def forward(self, x):
        a, _ = self.attention(self.ln1(x))
        x = x + a
        x = x + self.mlp(self.ln2(x))
        return x


torch.manual_seed(0)
block = Block(dim=32, n_heads=4)
print(block)
compiled = torch.compile(block)

x = torch.randn(2, 8, 32)
out = compiled(x)
print("output shape:", out.shape)
print("first values:", [round(v, 4) for v in out[0, 0, :5].tolist()])
print("matches eager:", torch.allclose(out, block(x), atol=1e-5))

with torch.no_grad():
    _, att = block.attention(block.ln1(x))
print("attention shape:", tuple(att.shape))
print("row sums:", att.sum(-1)[0, 0])
print("causal (upper triangle is zero):", bool((att[0, 0].triu(1) == 0).all()))
print(att[0, 0, :4, :4])

n_params = sum(p.numel() for p in block.parameters())
print(f"{n_params} parameters in {len(block.state_dict())} tensors")
print([k for k in compiled.state_dict().keys()][:3])
