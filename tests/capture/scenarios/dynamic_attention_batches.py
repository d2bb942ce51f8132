import torch
from torch import nn
import torch.nn.functional as F

class Attention(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = F.softmax((q @ k.transpose(-2, -1)) * (1.0 / (C // self.n_head) ** 0.5), dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)

torch.manual_seed(0)
m = Attention(16, 4)
cm = torch.compile(m)
for batch in [2, 3, 4, 5]:
    x = torch.randn(batch, 6, 16)
    out = cm(x)
    print(out.shape, round(out.sum().item(), 3), torch.allclose(out, m(x), atol=1e-5))
