# bench anchor train_transformer_block: training steps of transformer_block.py's pre-norm block
# (batch 8, sequence 256, width 512, 8 heads): forward, a regression loss against a fixed random
# target, backward, AdamW step; five steps in a row
# see README.md here; tests/training/ checks its losses against the uncompiled model's
import math
import torch
from torch import nn
import torch.nn.functional as F


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
opt = torch.optim.AdamW(block.parameters(), lr=1e-3)
x = torch.randn(8, 256, 512)
target = torch.randn(8, 256, 512)

# the first call captures and compiles; every later step replays the cached graph
for step in range(1, 6):
    opt.zero_grad(set_to_none=True)
    loss = F.mse_loss(compiled(x), target)
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
