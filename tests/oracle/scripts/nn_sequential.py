# covers: nn.Sequential construction, nested reprs, indexing/slicing/len/iteration, append, named children, forward chaining, Sequential of Sequentials
import torch
from torch import nn

torch.manual_seed(35)
mlp = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 2))
print(mlp)
print(len(mlp), mlp[0], mlp[-1], type(mlp[1:3]).__name__)
print(mlp[1:3])
for i, layer in enumerate(mlp):
    print(i, type(layer).__name__)
x = torch.randn(3, 4)
h = x
for layer in mlp:
    h = layer(h)
print(torch.allclose(h, mlp(x)), mlp(x))
nested = nn.Sequential(nn.Sequential(nn.Linear(2, 3), nn.GELU()), nn.Sequential(nn.Linear(3, 1)), nn.Identity())
print(nested)
print(nested(torch.ones(1, 2)))
seq = nn.Sequential()
seq.append(nn.Linear(2, 2))
seq.append(nn.SiLU())
print(seq, len(seq))
print([name for name, _ in mlp.named_children()], [n for n, _ in nested.named_modules()])
print([type(m).__name__ for m in nested.modules()])
empty = nn.Sequential()
print(empty, empty(x) is x)
