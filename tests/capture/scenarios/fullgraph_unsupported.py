import torch

@torch.compile(fullgraph=True)
def f(x):
    y = x * 2
    return y.sum().item()

try:
    f(torch.ones(3))
except torch._dynamo.exc.Unsupported as e:
    print("Unsupported:", str(e).splitlines()[0])
