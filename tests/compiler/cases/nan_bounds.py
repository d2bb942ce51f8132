# relu, clamp and maximum against constants keep NaN and infinities as eager does.
import torch


def f(x):
    return torch.relu(x), x.clamp(min=0.5), x.clamp(max=-0.5), torch.clamp(x, -1.0, 1.0), torch.maximum(x, torch.zeros_like(x))


cf = torch.compile(f)
x = torch.tensor([float('nan'), -2.0, -0.7, 0.0, 0.7, 2.0, float('inf'), float('-inf')])
print(cf(x))
print(f(x))
