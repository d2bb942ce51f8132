# covers: tensor indexing with ints, negative ints, slices with steps, None (newaxis), ellipsis, mixed forms, and views sharing storage
import torch

torch.manual_seed(16)
x = torch.arange(24).view(2, 3, 4)
print(x[0])
print(x[1, 2], x[1, 2, 3], x[-1, -1, -1], x[0][1][2])
print(x[:, 0], x[:, :, 0], x[..., 0], x[0, ..., 1])
print(x[:, 1:], x[:, ::2, ::3], x[0, -2:], x[1, :, 1:3])
print(x[None].shape, x[:, None].shape, x[..., None].shape, x[0, None, :, None].shape)
print(x[..., ::-1].shape if False else x[..., 1:].shape, x[:, :, -1], x[1, ...].shape)
print(x[0, 0, 0].item(), x[0, :, 0].tolist(), x[:, 0, 0].shape, x[0, 0].shape)
y = torch.randn(5, 5)
print(y[2:4, 1:3], y[::2, ::2].shape, y[-2:, :2], y[1:-1, 1:-1].shape)
print(y[4, :], y[:, 4])
row = x[0, 1]
print(row.shape, row.dim(), x[0, 1, 1:3])
v = torch.arange(10.0)
print(v[3], v[-1], v[2:8:2], v[:3], v[7:], v[100:], v[-3:-1])
s = v[2:5]
s[0] = -1.0
print(v)
print(x[1][0][::2], x[0, :, ::2].shape, x[:, -1, :][1])
