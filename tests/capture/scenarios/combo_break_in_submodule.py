import torch
from torch import nn

class Sub(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        y = self.lin(x) * 2
        print("in Sub.forward")
        return y + 1

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre = nn.Linear(4, 4)
        self.sub = Sub()

    def forward(self, x):
        h = self.pre(x).relu()
        h = self.sub(h)
        return h.sum(dim=-1)

torch.manual_seed(0)
net = Net()
cnet = torch.compile(net)
x = torch.randn(2, 4)
print(cnet(x).shape)
print(round(cnet(x).sum().item(), 4))
