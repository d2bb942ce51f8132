# covers: F.fractional_max_pool2d/3d (+ _with_indices, output_size / output_ratio, _random_samples, seeded draws), nn.FractionalMaxPool2d/3d, grad_fn names, errors
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
x = torch.randn(2, 3, 9, 8, requires_grad=True)
y = F.fractional_max_pool2d(x, 2, output_size=(5, 4))
print(y.shape, type(y.grad_fn).__name__)
print(y[0, 0].detach())
y2, idx = F.fractional_max_pool2d(x, (3, 2), output_ratio=(0.5, 0.6), return_indices=True)
print(y2.shape, idx[1, 2])
samples = torch.tensor([[[0.1, 0.9], [0.5, 0.5], [0.99, 0.01]], [[0.3, 0.3], [0.7, 0.2], [0.0, 0.4]]])
a, ia = F.fractional_max_pool2d_with_indices(x, 2, output_size=4, _random_samples=samples)
print(a[1, 1].detach(), ia[0, 0])
b = F.fractional_max_pool2d(x, 2, 4, None, False, samples)
print(torch.equal(a, b))
a.sum().backward()
print(x.grad[0, 0])
# unbatched input draws (1, C, 2) samples
u = F.fractional_max_pool2d(torch.arange(36.0).reshape(1, 6, 6), 2, output_size=3)
print(u)
m = nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5))
print(m, m._random_samples, list(m.state_dict().keys()))
print(m(x).shape)
m2 = nn.FractionalMaxPool2d(2, output_size=(4, 4), return_indices=True, _random_samples=samples)
o2, i2 = m2(x)
print(torch.equal(o2, a), torch.equal(i2, ia), list(m2.state_dict().keys()))
# 3d
v = torch.randn(2, 2, 6, 7, 5, requires_grad=True)
z = F.fractional_max_pool3d(v, 2, output_size=(3, 4, 2))
print(z.shape, type(z.grad_fn).__name__)
print(z[1, 1].detach())
z3, i3 = F.fractional_max_pool3d(v, (2, 3, 2), output_ratio=0.5, return_indices=True)
print(z3.shape, i3[0, 1])
s3 = torch.rand(2, 2, 3)
w1 = F.fractional_max_pool3d_with_indices(v, 2, (3, 3, 3), None, False, s3)
w2 = nn.FractionalMaxPool3d(2, output_size=3, return_indices=True, _random_samples=s3)(v)
print(torch.equal(w1[0], w2[0]), torch.equal(w1[1], w2[1]))
w1[0].pow(2).sum().backward()
print(v.grad[0, 0, 0])
print(nn.FractionalMaxPool3d(2, output_ratio=(0.5, 0.5, 0.5))(torch.randn(2, 8, 8, 8)).shape)
for bad in [lambda: F.fractional_max_pool2d(x, 2),
            lambda: F.fractional_max_pool3d(v, 2),
            lambda: nn.FractionalMaxPool2d(2),
            lambda: nn.FractionalMaxPool2d(2, output_size=3, output_ratio=0.5),
            lambda: nn.FractionalMaxPool2d(2, output_ratio=1.5),
            lambda: nn.FractionalMaxPool3d(2, output_ratio=(0.5, 0.5, 1.0)),
            lambda: nn.FractionalMaxPool3d(2)]:
    try:
        bad()
    except ValueError as e:
        print('ValueError', e)
