# bench anchor masked_softmax: attention scores with a causal mask filled with -inf, then softmax;
# the bool mask (256, 256) broadcasts over batch and heads
# not in PERF-ANCHORS.md yet
import torch


def masked_softmax(scores, mask):
    return torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)


torch.manual_seed(0)
scores = torch.randn(8, 8, 256, 256)
mask = ~torch.tril(torch.ones(256, 256, dtype=torch.bool))  # True above the diagonal
compiled = torch.compile(masked_softmax)

with torch.no_grad():
    ref = masked_softmax(scores, mask)  # eager reference
    # first call captures and compiles; the later calls replay the cached graph
    for _ in range(3):
        out = compiled(scores, mask)

print("output shape:", tuple(out.shape))
print("matches eager:", torch.allclose(out, ref, rtol=1e-4, atol=1e-5))
