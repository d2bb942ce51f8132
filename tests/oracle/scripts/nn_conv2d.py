# covers: nn.Conv2d (repr with stride/padding/groups/bias, weight shapes, output shapes), F.conv2d, F.max_pool2d, global mean pooling, flatten into Linear
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(33)
conv = nn.Conv2d(3, 4, kernel_size=3)
print(conv)
print(conv.weight.shape, conv.bias.shape, conv.kernel_size, conv.stride, conv.padding)
x = torch.randn(2, 3, 8, 8)
y = conv(x)
print(y.shape, y[0, 0, :2, :3])
for m in [nn.Conv2d(3, 6, 3, padding=1), nn.Conv2d(3, 6, 3, stride=2, padding=1), nn.Conv2d(3, 6, (1, 3), bias=False),
          nn.Conv2d(4, 4, 3, groups=2, padding="same"), nn.Conv2d(3, 2, 5, stride=(2, 1), dilation=1)]:
    print(m, tuple(m.weight.shape), tuple(m(x if m.in_channels == 3 else y).shape))
print(torch.allclose(F.conv2d(x, conv.weight, conv.bias), y))
print(F.max_pool2d(y, 2).shape, F.max_pool2d(y, 2)[0, 0], y.mean((2, 3)).shape)
k = torch.tensor([[[[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]]]])
img = torch.arange(25.0).view(1, 1, 5, 5) ** 2
print(F.conv2d(img, k))
print(F.conv2d(img, k, padding=1)[0, 0, 0])
loss = conv(x).pow(2).mean()
loss.backward()
print(conv.bias.grad, conv.weight.grad.shape)
