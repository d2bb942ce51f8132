# bench anchor pointwise_chain: eight elementwise ops on 2**22 floats; eager makes a pass over
# memory per op, a fused kernel reads x once and writes the result once
# see README.md here and ../shared/PERF-ANCHORS.md for torch.compile's figures
import torch


def f(x):
    y = x * torch.sigmoid(x)
    y = torch.tanh(y) + 0.5 * x
    return torch.relu(y) * 2 - 1


torch.manual_seed(0)
x = torch.randn(2 ** 22)
compiled = torch.compile(f)

with torch.no_grad():
    ref = f(x)  # eager reference
    # first call captures and compiles; the later calls replay the cached graph
    for _ in range(3):
        out = compiled(x)

print("output shape:", tuple(out.shape))
print("matches eager:", torch.allclose(out, ref, rtol=1e-4, atol=1e-5))
