# contextlib in model code: nanoGPT's `ctx = nullcontext() if cpu else autocast(...)`, torch's
# grad-mode managers pushed on an ExitStack, a @contextmanager that puts a model in eval mode and
# restores it, and suppress around a shape error.
from contextlib import ExitStack, contextmanager, nullcontext, suppress

import torch

torch.manual_seed(0)
device_type = "cpu"
ctx = nullcontext() if device_type == "cpu" else torch.autocast(device_type=device_type, dtype=torch.bfloat16)
model = torch.nn.Linear(3, 2)
x = torch.randn(4, 3)
with ctx:
    out = model(x)
print(out.shape, out.requires_grad, out.dtype)

with ExitStack() as stack:
    stack.enter_context(torch.no_grad())
    y = model(x)
print("under no_grad:", y.requires_grad)
with ExitStack() as stack:
    stack.enter_context(torch.no_grad())
    stack.enter_context(torch.enable_grad())
    z = model(x)
print("enable_grad inside no_grad:", z.requires_grad)


@contextmanager
def evaluating(module):
    was_training = module.training
    module.eval()
    try:
        yield module
    finally:
        module.train(was_training)


net = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Dropout(0.5))
print("before", net.training)
with evaluating(net) as m:
    print("inside", m.training, m[1].training)
    a = net(x)
    b = net(x)
    print("deterministic in eval:", torch.equal(a, b))
print("after", net.training)
try:
    with evaluating(net):
        raise ValueError("failed mid-eval")
except ValueError as e:
    print(e, "-> restored:", net.training)

with suppress(RuntimeError):
    torch.ones(2, 3) @ torch.ones(2, 3)
    print("not reached")
print("shape error suppressed")


@contextmanager
def accumulate(losses):
    total = []
    yield total
    losses.append(round(sum(total), 4))


history = []
for step in range(3):
    with accumulate(history) as parts:
        for _ in range(2):
            loss = model(torch.randn(2, 3)).pow(2).mean()
            parts.append(loss.item())
print(len(history), all(isinstance(v, float) for v in history))
