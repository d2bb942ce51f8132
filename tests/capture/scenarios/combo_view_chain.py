import torch

@torch.compile
def f(x):
    a = x.view(6, 4)
    b = a.reshape(2, 12)
    c = b.permute(1, 0)
    d = c.transpose(0, 1).contiguous()
    e = d.view(2, 3, 4).permute(2, 0, 1)
    return e.reshape(-1, 3) * 2, e.shape

x = torch.arange(24.0).view(2, 3, 4)
y, shp = f(x)
print(y.shape, shp)
print(y[:2])
print(round(y.sum().item(), 4))
