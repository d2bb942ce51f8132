import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
cmodel = torch.compile(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(16, 4)
y = torch.randn(16, 1)
for step in range(5):
    opt.zero_grad()
    loss = ((cmodel(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
