# A 12-layer transformer written op by op (explicit layer norm, per-head attention, SwiGLU MLP),
# compiled as one graph of about 2,000 nodes: the window's layout and responsiveness test.
import math
import torch
from torch import nn
import torch.nn.functional as F


class Norm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        mu = x.mean(dim=-1, keepdim=True)
        d = x - mu
        var = (d * d).mean(dim=-1, keepdim=True)
        return d * torch.rsqrt(var + 1e-5) * self.weight + self.bias


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.hd = dim // heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x, mask):
        q, k, v = self.q(x), self.k(x), self.v(x)
        outs = []
        for h in range(self.heads):
            s = slice(h * self.hd, (h + 1) * self.hd)
            qh, kh, vh = q[:, :, s], k[:, :, s], v[:, :, s]
            att = (qh @ kh.transpose(-2, -1)) * (1.0 / math.sqrt(self.hd))
            att = att.masked_fill(mask, float("-inf"))
            outs.append(F.softmax(att, dim=-1) @ vh)
        return self.o(torch.cat(outs, dim=-1))


class MLP(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gate = nn.Linear(dim, 2 * dim)
        self.up = nn.Linear(dim, 2 * dim)
        self.down = nn.Linear(2 * dim, dim)

    def forward(self, x):
        return self.down(F.silu(self.gate(x)) * self.up(x))


class Layer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = Norm(dim)
        self.attn = Attention(dim, heads)
        self.norm2 = Norm(dim)
        self.mlp = MLP(dim)

    def forward(self, x, mask):
        x = x + self.attn(self.norm1(x), mask)
        return x + self.mlp(self.norm2(x))


class Transformer(nn.Module):
    def __init__(self, dim=96, heads=12, depth=12):
        super().__init__()
        self.layers = nn.ModuleList([Layer(dim, heads) for _ in range(depth)])
        self.norm = Norm(dim)

    def forward(self, x):
        T = x.shape[1]
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        for layer in self.layers:
            x = layer(x, mask)
        return self.norm(x)


torch.manual_seed(0)
model = Transformer()
compiled = torch.compile(model)
x = torch.randn(2, 16, 96)
y = compiled(x)
print(y.shape, torch.allclose(y, model(x), atol=1e-4))
