# teaches: a full training loop - MLP, MSE loss, Adam, backward/step/zero_grad on a compiled model
# look for: one compile on the first step, then every step reuses the cached graph; the loss printed every 20 steps falls
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)

# toy regression: y = sin(3x) + 0.5 * x^2 (+ a little noise)
x = torch.linspace(-2.0, 2.0, 128).unsqueeze(1)
y = torch.sin(3.0 * x) + 0.5 * x ** 2 + 0.05 * torch.randn(128, 1)

model = nn.Sequential(
    nn.Linear(1, 32),
    nn.GELU(),
    nn.Linear(32, 32),
    nn.GELU(),
    nn.Linear(32, 1),
)
print(model)
print("parameters:", sum(p.numel() for p in model.parameters()))

compiled = torch.compile(model)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

for step in range(1, 101):
    opt.zero_grad(set_to_none=True)
    pred = compiled(x)
    loss = F.mse_loss(pred, y)
    loss.backward()
    opt.step()
    if step % 20 == 0 or step == 1:
        print(f"step {step:3d}  loss {loss.item():.4f}")

with torch.no_grad():
    final = F.mse_loss(compiled(x), y).item()
    probe = compiled(torch.tensor([[-1.0], [0.0], [1.0]]))
print(f"final loss {final:.4f}")
print("predictions at -1, 0, 1:", [round(v, 3) for v in probe.squeeze(1).tolist()])
print("compiled shares weights:", compiled._orig_mod[0].weight is model[0].weight)
