# bench anchor seed_mlp_b8192: the seed example's MLP at batch 8192 (two GEMMs and a GELU)
# see README.md here and ../shared/PERF-ANCHORS.md for torch.compile's figures
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 10))
compiled = torch.compile(model)
x = torch.randn(8192, 256)

with torch.no_grad():
    ref = model(x)  # eager reference
    # first call captures and compiles; the later calls replay the cached graph
    for _ in range(3):
        out = compiled(x)

print("output shape:", tuple(out.shape))
print("matches eager:", torch.allclose(out, ref, rtol=1e-4, atol=1e-5))
