# covers: training a compiled module and an identical eager copy side by side (load_state_dict of stripped keys), loss parity, state_dict prefix handling
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(47)
eager = nn.Sequential(nn.Linear(5, 16), nn.SiLU(), nn.Linear(16, 1))
twin = nn.Sequential(nn.Linear(5, 16), nn.SiLU(), nn.Linear(16, 1))
twin.load_state_dict(eager.state_dict())
compiled = torch.compile(twin)
keys = list(compiled.state_dict().keys())
print(keys)
stripped = {k[len("_orig_mod."):]: v for k, v in compiled.state_dict().items() if k.startswith("_orig_mod.")}
print(sorted(stripped) == sorted(eager.state_dict()))
X = torch.randn(32, 5)
Y = (X[:, :1] * 2 - X[:, 1:2]).tanh()
opt_e = torch.optim.SGD(eager.parameters(), lr=0.1)
opt_c = torch.optim.SGD(compiled.parameters(), lr=0.1)
for step in range(25):
    losses = []
    for m, opt in ((eager, opt_e), (compiled, opt_c)):
        opt.zero_grad(set_to_none=True)
        loss = F.mse_loss(m(X), Y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    if step % 6 == 0:
        print(f"step {step:2d} eager {losses[0]:.4f} compiled {losses[1]:.4f} same {abs(losses[0] - losses[1]) < 1e-5}")
print(torch.allclose(eager[0].weight, twin[0].weight, atol=1e-5))
print(eager[2].weight.detach())
