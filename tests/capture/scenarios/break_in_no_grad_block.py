import torch

@torch.compile
def f(x):
    y = x * 2
    with torch.no_grad():
        z = y + 1
        print("inside no_grad")
        w = z * 3
    return w - y

x = torch.ones(2, requires_grad=True)
out = f(x)
print(out, out.requires_grad)
