# covers: parameters(), named_parameters(), state_dict keys and shapes, load_state_dict, requires_grad_ freezing, numel counting, named_modules, children
import torch
from torch import nn

torch.manual_seed(38)
model = nn.Sequential(nn.Embedding(20, 8), nn.LayerNorm(8), nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 4))
for name, p in model.named_parameters():
    print(f"{name:12s} {str(tuple(p.shape)):10s} {p.numel():5d} {p.requires_grad}")
total = sum(p.numel() for p in model.parameters())
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print("total", total, "trainable", trainable)
sd = model.state_dict()
print(len(sd), list(sd)[:2])
for k, v in sd.items():
    print(k, list(v.shape), v.dtype, v.requires_grad)
model[0].requires_grad_(False)
print(sum(p.numel() for p in model.parameters() if p.requires_grad), model[0].weight.requires_grad)
clone = nn.Sequential(nn.Embedding(20, 8), nn.LayerNorm(8), nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 4))
print(torch.equal(clone[2].weight, model[2].weight))
result = clone.load_state_dict(sd)
print(result.missing_keys, result.unexpected_keys)
print(torch.equal(clone[2].weight, model[2].weight), clone[2].weight is model[2].weight)
tokens = torch.tensor([[1, 2, 3]])
print(torch.allclose(clone(tokens), model(tokens)))
print([type(c).__name__ for c in model.children()])
print([n for n, _ in model.named_modules()])
first = next(iter(model.parameters()))
print(first.shape, len(list(model.parameters())))
with torch.no_grad():
    for p in model.parameters():
        p.zero_()
print(model(tokens).detach())
print(sd["2.bias"].abs().sum().item() == 0.0)
