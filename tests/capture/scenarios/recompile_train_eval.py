import torch
from torch import nn

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(self.lin(x))

torch.manual_seed(0)
m = M()
cm = torch.compile(m)
x = torch.ones(2, 4)
m.eval()
print(cm(x))
m.train()
y = cm(x)
print(y.shape)
m.eval()
print(cm(x))
