import torch
from torch import nn

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 8)

    def forward(self, x):
        return x + self.fc2(torch.relu(self.fc1(x)))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Block(), Block()])
        self.norm = nn.LayerNorm(8)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.norm(x)

torch.manual_seed(0)
net = Net()
cnet = torch.compile(net)
x = torch.randn(3, 8)
print(torch.allclose(cnet(x), net(x), atol=1e-6))
print(cnet(x).sum().item() == net(x).sum().item())
