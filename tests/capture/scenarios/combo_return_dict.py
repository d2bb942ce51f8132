import torch

@torch.compile
def stats(x):
    m = x.mean(dim=0)
    return {"mean": m, "centered": x - m, "max": x.amax(dim=0)}

torch.manual_seed(0)
x = torch.randn(4, 3)
out = stats(x)
print(sorted(out.keys()))
print(out["centered"].shape, out["max"].shape)
print(round(out["mean"].sum().item(), 4), round(out["max"].sum().item(), 4))
out = stats(x * 2)
print(round(out["centered"].abs().sum().item(), 4))
