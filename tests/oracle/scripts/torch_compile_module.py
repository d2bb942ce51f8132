# covers: torch.compile on nn.Module: OptimizedModule repr, _orig_mod, shared parameters, state_dict key prefix _orig_mod., train/eval forwarding, attribute forwarding
import torch
from torch import nn

torch.manual_seed(27)
model = nn.Sequential(nn.Linear(6, 8), nn.GELU(), nn.Dropout(0.5), nn.Linear(8, 3))
compiled = torch.compile(model)
print(compiled)
print(type(compiled).__name__, isinstance(compiled, nn.Module), compiled._orig_mod is model)
print(list(model.state_dict().keys()))
print(list(compiled.state_dict().keys()))
for k, v in compiled.state_dict().items():
    print(k, tuple(v.shape))
print([n for n, _ in compiled.named_parameters()])
print(len(list(compiled.parameters())), sum(p.numel() for p in compiled.parameters()))
print(all(a is b for a, b in zip(compiled.parameters(), model.parameters())))
x = torch.randn(5, 6)
compiled.eval()
print(model.training, compiled.training, model[2].training)
out = compiled(x)
print(out)
print(torch.allclose(out, model(x)), torch.equal(compiled(x), out))
with torch.no_grad():
    model[0].weight.mul_(0.5)
print(torch.allclose(compiled(x), model(x)), torch.allclose(compiled(x), out))
compiled.train()
print(model.training, model[2].training)


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 2)
        self.scale = 0.5

    def forward(self, h):
        return self.proj(h) * self.scale


head = Head()
ch = torch.compile(head)
print(ch.scale, ch.proj, ch.proj.weight.shape, ch._orig_mod.scale)
print(ch)
print(list(ch.state_dict().keys()))
sd = head.state_dict()
fresh = Head()
fresh.load_state_dict(sd)
print(torch.equal(fresh(out), ch(out)))
