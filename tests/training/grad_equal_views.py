# Outputs that are inputs or views of inputs through compiled training: a compiled module returns,
# beside a computed value, its weight transposed, a slice of its bias and its input itself. As
# AOTAutograd does, the compiled call hands them out as eager would (the input itself; the view
# ops replayed on the input with grad, so the view's backward leads to the input), and the
# compiled backward carries the computed output only. Compiled on one copy and eager on a deep
# copy, two SGD steps: each returned view's grad_fn, sharing (a write through the view reaches
# the parameter), every gradient and parameter must be eager's within 1e-5 of its size.
# check_training.py also requires `explain` to report the compiled backward used, never the
# eager recompute. Run by tests/training/check_training.py.
import copy
import torch
from torch import nn
import torch.nn.functional as F

from grad_compare import compare


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        h = torch.tanh(self.lin(x))
        return h, self.lin.weight.t(), self.lin.bias[2:5], x


torch.manual_seed(0)
net = Net()
ref = copy.deepcopy(net)
compiled = torch.compile(net)
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
opt_ref = torch.optim.SGD(ref.parameters(), lr=0.05, momentum=0.9)
x = torch.randn(4, 8, requires_grad=True)
x_ref = x.detach().clone().requires_grad_(True)
target = torch.randn(4, 8)


def name(t):
    return type(t.grad_fn).__name__ if t.grad_fn is not None else "None"


bad = []
for step in (1, 2, 3):
    print(f"step {step}")
    opt.zero_grad(set_to_none=True)
    opt_ref.zero_grad(set_to_none=True)
    x.grad = None
    x_ref.grad = None
    h, wt, b, xo = compiled(x)
    h2, wt2, b2, xo2 = ref(x_ref)
    kinds = (name(wt), name(b), xo is x, wt.shape, wt.stride())
    kinds_ref = (name(wt2), name(b2), xo2 is x_ref, wt2.shape, wt2.stride())
    print("views", kinds, "eager", kinds_ref)
    if kinds != kinds_ref:
        bad.append("step %d views %r, eager %r" % (step, kinds, kinds_ref))
    loss = F.mse_loss(h, target) + (wt * wt).sum() * 0.1 + b.sum() + (xo ** 2).mean()
    loss.backward()
    loss_ref = F.mse_loss(h2, target) + (wt2 * wt2).sum() * 0.1 + b2.sum() + (xo2 ** 2).mean()
    loss_ref.backward()
    print(f"loss {loss.item():.6f} eager {loss_ref.item():.6f}")
    bad += compare("grad", [(n, p.grad, q.grad) for (n, p), (_, q) in zip(net.named_parameters(), ref.named_parameters())] +
                   [("x", x.grad, x_ref.grad)])
    opt.step()
    opt_ref.step()
    # the returned view shares the parameter's storage, as eager's does
    with torch.no_grad():
        wt[0, 0] = 0.25
        wt2[0, 0] = 0.25
    bad += compare("after step", [(n, p.detach(), q.detach()) for (n, p), (_, q) in zip(net.named_parameters(), ref.named_parameters())])
assert not bad, "compiled outputs that view inputs differ from eager's: " + ", ".join(bad)
print("gradients match")
