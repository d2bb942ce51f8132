import torch

@torch.compile(fullgraph=True)
def f(x):
    y = x + 1
    print("inside f")
    return y * 2

try:
    out = f(torch.ones(2))
    print("no error", out)
except torch._dynamo.exc.Unsupported as e:
    print(type(e).__name__)
