# A lambda given to torch.compile is captured like a def (its frame is named <lambda>): one graph,
# one fused kernel, computing what the lambda computes eagerly.
import torch

scale = 0.5
cf = torch.compile(lambda x, y: (x * y + scale).relu() - y)
torch.manual_seed(0)
x, y = torch.randn(4, 8), torch.randn(4, 8)
for _ in range(2):
    got = cf(x, y)
    print(torch.allclose(got, (x * y + scale).relu() - y))
