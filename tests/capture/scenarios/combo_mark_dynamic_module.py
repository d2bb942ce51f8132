import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 4))
cmodel = torch.compile(model)
x = torch.randn(4, 4)
torch._dynamo.mark_dynamic(x, 0)
print(cmodel(x).shape)
for bs in [6, 10]:
    y = cmodel(torch.randn(bs, 4))
    print(y.shape, round(y.sum().item(), 4))
