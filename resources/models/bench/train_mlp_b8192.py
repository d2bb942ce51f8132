# bench anchor train_mlp_b8192: one training step of the seed MLP at batch 8192 (forward,
# cross-entropy loss, backward, SGD with momentum step), five steps in a row
# see README.md here; tests/training/ checks its losses against the uncompiled model's
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 10))
compiled = torch.compile(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(8192, 256)
y = torch.randint(0, 10, (8192,))

# the first call captures and compiles; every later step replays the cached graph
for step in range(1, 6):
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(compiled(x), y)
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
