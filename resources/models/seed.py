import torch
from torch import nn
model = nn.Sequential(nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 10))
compiled = torch.compile(model) # same parameters, optimised execution
x = torch.randn(32, 256)
out = compiled(x) # first call: trace + compile (slow)
out = compiled(x) # later calls: cached kernels
print(torch.allclose(out, model(x), atol=1e-5)) # True
@torch.compile(fullgraph=True) # error instead of a silent graph break
def scaled_gelu(x, s):
    return nn.functional.gelu(x) * s
print(scaled_gelu(torch.randn(4), 2.0).shape) # torch.Size([4])
