# bench anchor softmax_rows: a scale folded into a row softmax (max, exp, sum, divide per row)
# see README.md here and ../shared/PERF-ANCHORS.md for torch.compile's figures
import torch


def f(x):
    return torch.softmax(x * 0.125, dim=-1)


torch.manual_seed(0)
x = torch.randn(4096, 1024)
compiled = torch.compile(f)

with torch.no_grad():
    ref = f(x)  # eager reference
    # first call captures and compiles; the later calls replay the cached graph
    for _ in range(3):
        out = compiled(x)

print("output shape:", tuple(out.shape))
print("matches eager:", torch.allclose(out, ref, rtol=1e-4, atol=1e-5))
