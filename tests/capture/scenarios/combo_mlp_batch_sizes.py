import torch
from torch import nn

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

torch.manual_seed(0)
mlp = torch.compile(MLP())
for bs in [4, 8, 16]:
    x = torch.randn(bs, 8)
    y = mlp(x)
    print(bs, y.shape, round(y.sum().item(), 4))
