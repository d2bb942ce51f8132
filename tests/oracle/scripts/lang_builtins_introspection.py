# covers: isinstance (incl. tuples of types), type(), getattr/setattr/hasattr with defaults, callable, id-free identity checks
import torch
from torch import nn

torch.manual_seed(0)


class Box:
    def __init__(self):
        self.value = 1


b = Box()
print(getattr(b, "value"), getattr(b, "missing", "default"), hasattr(b, "value"), hasattr(b, "nope"))
setattr(b, "value", 5)
setattr(b, "extra", [1, 2])
print(b.value, b.extra, getattr(b, "extra")[1])
try:
    getattr(b, "missing")
except AttributeError as e:
    print("AttributeError:", e)
for v in [1, 1.0, "s", [1], (1,), {"a": 1}, None, True, torch.zeros(1), nn.Linear(1, 1)]:
    print(type(v).__name__, isinstance(v, int), isinstance(v, (float, str)), isinstance(v, torch.Tensor),
          isinstance(v, nn.Module))
print(isinstance(True, int), type(True) == bool, type(1) is int, type(1.0) is float)
print(callable(len), callable(b), callable(Box), callable(lambda: 0), callable(nn.ReLU()))
lin = nn.Linear(3, 2)
for name in ["weight", "bias", "in_features", "out_features"]:
    val = getattr(lin, name)
    print(name, type(val).__name__, val.shape if isinstance(val, torch.Tensor) else val)
print(hasattr(lin, "forward"), hasattr(lin, "not_there"), hasattr(torch, "randn"), hasattr(torch, "no_such_fn"))
fn = getattr(torch, "zeros")
print(fn(2))
act = getattr(nn, "ReLU")()
print(act, type(act).__name__)
print(type(torch.zeros(1)), type(torch.float32), type(torch.Size([1])))
print(isinstance(torch.zeros(2).shape, tuple), isinstance(nn.Parameter(torch.zeros(1)), torch.Tensor))
