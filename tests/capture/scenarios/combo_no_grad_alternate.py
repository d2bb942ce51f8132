import torch

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)

@torch.compile
def f(x):
    return (x * w).sin().sum()

x = torch.ones(3)
for i in range(4):
    if i % 2 == 1:
        with torch.no_grad():
            y = f(x)
    else:
        y = f(x)
    print(i, y.requires_grad, round(y.item(), 4))
