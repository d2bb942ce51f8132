import torch
from torch import nn

class Heads(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(6, 8)
        self.cls = nn.Linear(8, 3)

    def forward(self, x):
        h = torch.tanh(self.body(x))
        return self.cls(h), h.norm(dim=-1)

torch.manual_seed(0)
m = torch.compile(Heads())
x = torch.randn(4, 6)
logits, norms = m(x)
print(type(m(x)).__name__, len(m(x)))
print(logits.shape, norms.shape)
print(round(logits.sum().item(), 4), round(norms.sum().item(), 4))
