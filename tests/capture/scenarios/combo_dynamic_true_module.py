import torch
from torch import nn

class Norm(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(4)
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(self.ln(x)).mean(dim=1)

torch.manual_seed(0)
m = torch.compile(Norm(), dynamic=True)
for b, t in [(2, 3), (3, 5), (5, 2)]:
    y = m(torch.randn(b, t, 4))
    print(y.shape, round(y.sum().item(), 4))
