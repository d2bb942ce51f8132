# One training step of resources/models/mlp_training.py's MLP, compiled on one copy and eager on a
# deep copy, on the same input: every parameter's gradient (and value after the optimizer step)
# must be eager's within 1e-5 of the tensor's largest magnitude (`rel`). Two steps: the first
# call captures and compiles, the second replays the cached graph. tests/training/check_training.py
# runs it; exit status 1 (an AssertionError naming the parameters) when one differs.
import copy
import torch
from torch import nn
import torch.nn.functional as F

from grad_compare import compare

torch.manual_seed(0)
x = torch.linspace(-2.0, 2.0, 128).unsqueeze(1)
y = torch.sin(3.0 * x) + 0.5 * x ** 2 + 0.05 * torch.randn(128, 1)
model = nn.Sequential(nn.Linear(1, 32), nn.GELU(), nn.Linear(32, 32), nn.GELU(), nn.Linear(32, 1))
ref = copy.deepcopy(model)
compiled = torch.compile(model)
# SGD, not mlp_training.py's Adam: Adam's first step moves every weight by about lr whatever its
# gradient's size, so a gradient that is rounding noise would move its weight by lr either way
# round in the two copies; SGD keeps the step's difference the gradient's
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
opt_ref = torch.optim.SGD(ref.parameters(), lr=0.05, momentum=0.9)

bad = []
for step in (1, 2):
    print(f"step {step}")
    opt.zero_grad(set_to_none=True)
    opt_ref.zero_grad(set_to_none=True)
    loss = F.mse_loss(compiled(x), y)
    loss.backward()
    loss_ref = F.mse_loss(ref(x), y)
    loss_ref.backward()
    print(f"loss {loss.item():.6f} eager {loss_ref.item():.6f}")
    bad += compare("grad", [(n, p.grad, q.grad) for (n, p), (_, q) in zip(model.named_parameters(), ref.named_parameters())])
    opt.step()
    opt_ref.step()
    bad += compare("after step", [(n, p.detach(), q.detach()) for (n, p), (_, q) in zip(model.named_parameters(), ref.named_parameters())])
assert not bad, "compiled gradients differ from eager's by more than 1e-5 of their size: " + ", ".join(bad)
print("gradients match")
