# expect: exit=1 stderr_re="(?m)^torch._dynamo.exc.Unsupported: Failed to trace builtin operator"
import torch

@torch.compile(fullgraph=True)
def f(x):
    print("no")
    return x

f(torch.ones(2))
