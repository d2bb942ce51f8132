import torch

@torch.compile
def f(w, x):
    loss = (w * x).sum()
    loss.backward()
    return w.grad * 2

w = torch.ones(3, requires_grad=True)
print(f(w, torch.arange(3.0)))
