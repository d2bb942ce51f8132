# covers: torch.optim.SGD training loop (plain and momentum/weight_decay), zero_grad/backward/step, loss printing with few digits, final weights
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(42)
true_w = torch.tensor([[2.0, -3.0, 0.5]])
true_b = torch.tensor([1.0])
X = torch.randn(64, 3)
y = X @ true_w.t() + true_b + 0.01 * torch.randn(64, 1)

model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(60):
    opt.zero_grad(set_to_none=True)
    loss = F.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 59:
        print(f"step {step:2d} loss {loss.item():.5f}")
print(model.weight, model.bias)
print([round(v, 3) for v in model.weight.detach().flatten().tolist()], round(model.bias.item(), 3))

torch.manual_seed(0)
model2 = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
opt2 = torch.optim.SGD(model2.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
for epoch in range(5):
    total = 0.0
    for i in range(0, 64, 16):
        xb, yb = X[i:i + 16], y[i:i + 16]
        opt2.zero_grad(set_to_none=True)
        loss = F.mse_loss(model2(xb), yb)
        loss.backward()
        opt2.step()
        total += loss.item()
    print(f"epoch {epoch} mean loss {total / 4:.4f}")
print(model2[2].weight.detach())
print(len(opt2.param_groups), opt2.param_groups[0]["lr"], opt2.param_groups[0]["momentum"])
