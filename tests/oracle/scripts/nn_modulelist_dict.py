# covers: nn.ModuleList and nn.ModuleDict (construction, repr, indexing, iteration, append/extend, keys/items, registration of parameters), nn.Identity
import torch
from torch import nn

torch.manual_seed(36)


class Stack(nn.Module):
    def __init__(self, dim, depth):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(depth)])
        self.acts = nn.ModuleDict({"relu": nn.ReLU(), "gelu": nn.GELU(), "id": nn.Identity()})
        self.plain_list = [nn.Linear(dim, dim)]  # NOT registered

    def forward(self, x, act="relu"):
        for i, layer in enumerate(self.layers):
            x = self.acts[act](layer(x))
        return x


s = Stack(3, 2)
print(s)
print(len(s.layers), s.layers[0], s.layers[-1].weight.shape, len(s.acts), "relu" in s.acts)
print(list(s.acts.keys()), [type(v).__name__ for v in s.acts.values()])
for k, v in s.acts.items():
    print(k, v)
print(len(list(s.parameters())), [n for n, _ in s.named_parameters()])
x = torch.randn(2, 3)
print(s(x), s(x, act="gelu"), s(x, "id"))
s.layers.append(nn.Linear(3, 3))
s.layers.extend([nn.Linear(3, 3)])
s.acts["tanh"] = nn.Tanh()
print(len(s.layers), len(list(s.parameters())), list(s.acts))
print(s(x, act="tanh"))
ml = nn.ModuleList()
ml.append(nn.Identity())
ml.insert(0, nn.Linear(3, 1))
print(ml, ml[1](x) is x, ml[0:1])
md = nn.ModuleDict()
md.update({"b": nn.ReLU(), "a": nn.Sigmoid()})
print(md, list(md.keys()))
