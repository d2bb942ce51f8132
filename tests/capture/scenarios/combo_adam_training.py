import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1))
cmodel = torch.compile(model)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
x = torch.randn(8, 6)
y = torch.randn(8, 1)
for step in range(3):
    opt.zero_grad()
    loss = F.mse_loss(cmodel(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
