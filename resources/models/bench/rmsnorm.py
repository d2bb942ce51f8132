# bench anchor rmsnorm: RMSNorm written out (pow, mean over the row, rsqrt, two multiplies)
# not in PERF-ANCHORS.md yet: a row reduction with pointwise ops on both sides
import torch


def rmsnorm(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w


torch.manual_seed(0)
x = torch.randn(4096, 1024)
w = 1.0 + 0.1 * torch.randn(1024)
compiled = torch.compile(rmsnorm)

with torch.no_grad():
    ref = rmsnorm(x, w)  # eager reference
    # first call captures and compiles; the later calls replay the cached graph
    for _ in range(3):
        out = compiled(x, w)

print("output shape:", tuple(out.shape))
print("matches eager:", torch.allclose(out, ref, rtol=1e-4, atol=1e-5))
