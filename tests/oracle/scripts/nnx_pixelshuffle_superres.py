# covers: nn.PixelShuffle / PixelUnshuffle (repr, forward, backward), F.pixel_shuffle, super_resolution-style net, ChannelShuffle
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
ps = nn.PixelShuffle(2)
pu = nn.PixelUnshuffle(2)
print(ps, pu)
x = torch.arange(16.0).reshape(1, 4, 2, 2).requires_grad_()
y = ps(x)
print(y)
print(pu(y.detach()))
(y * torch.arange(16.0).reshape(1, 1, 4, 4)).sum().backward()
print(x.grad)
print(F.pixel_shuffle(torch.arange(8.0).reshape(2, 2, 2), 1).shape)
print(F.pixel_unshuffle(torch.arange(32.0).reshape(2, 4, 4), 2).shape)
try:
    ps(torch.randn(1, 3, 2, 2))
except RuntimeError as e:
    print('RuntimeError')


class Net(nn.Module):
    def __init__(self, upscale_factor):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 8, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(8, 4, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(4, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        x = self.pixel_shuffle(self.conv3(x))
        return x


model = Net(3)
print(model)
inp = torch.randn(2, 1, 4, 4)
out = model(inp)
print(out.shape)
loss = nn.MSELoss()(out, torch.randn(2, 1, 12, 12))
loss.backward()
print(round(loss.item(), 4))
print(model.conv3.weight.grad.shape, round(model.conv3.bias.grad[0].item(), 4))
cs = nn.ChannelShuffle(2)
print(cs)
print(cs(torch.arange(8.0).reshape(1, 4, 1, 2)))
print(F.channel_shuffle(torch.arange(6.0).reshape(1, 6, 1, 1), 3).flatten())
