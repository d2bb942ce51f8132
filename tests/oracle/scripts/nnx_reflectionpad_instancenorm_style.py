# covers: nn.ReflectionPad2d, nn.InstanceNorm2d (affine, track_running_stats, no-batch input), F.interpolate nearest upsample, fast_neural_style TransformerNet blocks
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2)
rp = nn.ReflectionPad2d(2)
print(rp, nn.ReflectionPad2d((1, 0, 2, 1)))
x = torch.arange(12.0).reshape(1, 1, 3, 4).requires_grad_()
y = rp(x)
print(y)
(y * y).sum().backward()
print(x.grad)
inorm = nn.InstanceNorm2d(3, affine=True)
print(inorm)
print(nn.InstanceNorm2d(4), nn.InstanceNorm2d(2, track_running_stats=True))
print(list(inorm.state_dict().keys()), list(nn.InstanceNorm2d(4).state_dict().keys()))
print(list(nn.InstanceNorm2d(2, track_running_stats=True).state_dict().keys()))
z = torch.randn(2, 3, 4, 4, requires_grad=True)
o = inorm(z)
print(o[0, 0].detach())
(o * torch.arange(3.0).view(1, 3, 1, 1)).sum().backward()
print(inorm.weight.grad, inorm.bias.grad)
print(z.grad[1, 2, 0])
print(inorm(torch.randn(3, 4, 4)).shape)
tr = nn.InstanceNorm2d(2, track_running_stats=True, momentum=0.5)
tr(torch.randn(2, 2, 3, 3) * 3 + 1)
print(tr.running_mean, tr.running_var, tr.num_batches_tracked)
tr.eval()
print(tr(torch.ones(1, 2, 2, 2))[0, 0])
try:
    inorm(torch.randn(3, 4))
except ValueError as e:
    print('ValueError', e)
try:
    F.instance_norm(torch.randn(2, 3, 1, 1))
except ValueError as e:
    print('ValueError', e)


class ConvLayer(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super(ConvLayer, self).__init__()
        reflection_padding = kernel_size // 2
        self.reflection_pad = nn.ReflectionPad2d(reflection_padding)
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        return self.conv2d(self.reflection_pad(x))


class UpsampleConvLayer(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, upsample=None):
        super(UpsampleConvLayer, self).__init__()
        self.upsample = upsample
        reflection_padding = kernel_size // 2
        self.reflection_pad = nn.ReflectionPad2d(reflection_padding)
        self.conv2d = nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        x_in = x
        if self.upsample:
            x_in = F.interpolate(x_in, mode='nearest', scale_factor=self.upsample)
        out = self.reflection_pad(x_in)
        return self.conv2d(out)


net = nn.Sequential(ConvLayer(3, 4, 3, 2), nn.InstanceNorm2d(4, affine=True), nn.ReLU(),
                    UpsampleConvLayer(4, 3, 3, 1, upsample=2))
print(net)
img = torch.randn(1, 3, 6, 6)
out = net(img)
print(out.shape)
print(out[0, 0].detach())
out.mean().backward()
print(net[0].conv2d.weight.grad[0, 0])
print(list(net.state_dict().keys()))
