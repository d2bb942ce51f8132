# covers: torch.optim.Adam / AdamW training a small MLP classifier with F.cross_entropy, lr/betas/weight_decay args, accuracy, param_groups lr change
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(43)
N, D, C = 96, 4, 3
X = torch.randn(N, D)
centers = torch.randn(C, D) * 2
labels = torch.randint(0, C, (N,))
X = X + centers[labels]

model = nn.Sequential(nn.Linear(D, 16), nn.ReLU(), nn.Linear(16, C))
opt = torch.optim.Adam(model.parameters(), lr=0.01, betas=(0.9, 0.999))
for step in range(1, 81):
    opt.zero_grad(set_to_none=True)
    logits = model(X)
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    opt.step()
    if step % 16 == 0:
        acc = (logits.argmax(-1) == labels).float().mean().item()
        print(f"step {step:3d} loss {loss.item():.4f} acc {acc:.3f}")
for g in opt.param_groups:
    g["lr"] = 0.001
print(opt.param_groups[0]["lr"], opt.param_groups[0]["betas"])
with torch.no_grad():
    final = F.cross_entropy(model(X), labels)
print(f"final {final.item():.4f}")
print(model[2].bias.detach())

torch.manual_seed(44)
w = torch.zeros(3, requires_grad=True)
target = torch.tensor([1.0, -2.0, 0.5])
opt2 = torch.optim.AdamW([w], lr=0.1, weight_decay=0.01)
for i in range(50):
    opt2.zero_grad(set_to_none=True)
    l = ((w - target) ** 2).sum()
    l.backward()
    opt2.step()
print(w.detach(), f"{l.item():.6f}")
