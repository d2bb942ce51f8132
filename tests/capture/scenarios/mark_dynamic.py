import torch

@torch.compile
def f(x):
    return x * 2 + 1

a = torch.ones(8)
torch._dynamo.mark_dynamic(a, 0)
print(f(a).sum().item())
print(f(torch.ones(16)).sum().item())
print(f(torch.ones(24)).sum().item())
