# covers: residual CNN block (Conv2d + BatchNorm2d + ReLU + skip), global average pooling, compiled forward in train and eval modes, running stats after steps
import torch
from torch import nn
import torch.nn.functional as F


class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.b1 = nn.BatchNorm2d(c)
        self.c2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.b2 = nn.BatchNorm2d(c)

    def forward(self, x):
        h = F.relu(self.b1(self.c1(x)))
        return F.relu(x + self.b2(self.c2(h)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.blocks = nn.Sequential(ResBlock(8), ResBlock(8))
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        x = self.blocks(F.relu(self.stem(x)))
        return self.fc(x.mean((2, 3)))


torch.manual_seed(48)
net = Net()
cnet = torch.compile(net)
x = torch.randn(6, 3, 8, 8)
y = torch.randint(0, 5, (6,))
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for step in range(8):
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(cnet(x), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
print(net.blocks[0].b1.running_mean[:4], net.blocks[1].b2.num_batches_tracked)
cnet.eval()
with torch.no_grad():
    out = cnet(x)
print(out.shape, out.argmax(1).tolist(), y.tolist())
print(sum(p.numel() for p in net.parameters()), len(cnet.state_dict()))
