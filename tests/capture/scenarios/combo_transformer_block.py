import torch
from torch import nn
import torch.nn.functional as F

class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.scale = d ** -0.5

    def forward(self, x):
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        att = F.softmax(q @ k.transpose(-2, -1) * self.scale, dim=-1)
        x = x + self.proj(att @ v)
        return x + self.mlp(self.ln2(x))

class Tiny(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.blocks = nn.ModuleList([Block(d), Block(d)])

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return x

torch.manual_seed(0)
model = torch.compile(Tiny())
x = torch.randn(2, 5, 8)
for _ in range(2):
    y = model(x)
    print(y.shape, round(y.sum().item(), 4), round(y.abs().mean().item(), 4))
