# covers: nn.ConvTranspose2d (repr, seeded init, output_size, groups/dilation), BCELoss, DCGAN-style generator/discriminator step
import torch
import torch.nn as nn

torch.manual_seed(0)
ct = nn.ConvTranspose2d(4, 3, 4, 2, 1, bias=False)
print(ct)
print(ct.weight.shape, ct.bias)
print(ct.weight[0, 0])
x = torch.randn(2, 4, 3, 3, requires_grad=True)
y = ct(x)
print(y.shape)
print(y[0, 0].detach())
y.sum().backward()
print(x.grad[0, 1])
print(ct.weight.grad[1, 2])
print(ct(x, output_size=[7, 7]).shape)
ct2 = nn.ConvTranspose2d(4, 6, (3, 2), stride=(2, 1), padding=(1, 0), output_padding=(1, 0), groups=2, dilation=1)
print(ct2)
print(ct2.bias.detach())
print(ct2(x).shape)
ct3 = nn.ConvTranspose2d(2, 2, 3, dilation=2, bias=True)
print(ct3, list(ct3.state_dict().keys()))
try:
    ct(x, output_size=[20, 20])
except ValueError as e:
    print('ValueError', e)
try:
    nn.ConvTranspose2d(4, 3, 3, padding_mode='reflect')
except ValueError as e:
    print('ValueError', e)

nz, ngf, ndf = 8, 4, 4
netG = nn.Sequential(
    nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False),
    nn.BatchNorm2d(ngf * 2),
    nn.ReLU(True),
    nn.ConvTranspose2d(ngf * 2, 3, 4, 2, 1, bias=False),
    nn.Tanh(),
)
netD = nn.Sequential(
    nn.Conv2d(3, ndf, 4, 2, 1, bias=False),
    nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(ndf, 1, 4, 1, 0, bias=False),
    nn.Sigmoid(),
)
print(netG)
criterion = nn.BCELoss()
print(criterion)
noise = torch.randn(3, nz, 1, 1)
fake = netG(noise)
print(fake.shape)
out = netD(fake).view(-1)
label = torch.full((3,), 1.0)
errG = criterion(out, label)
print(round(errG.item(), 4))
errG.backward()
print(netG[0].weight.grad.abs().sum().item() > 0)
print(list(netG.state_dict().keys()))
w = torch.tensor([1.0, 2.0, 0.5])
print(nn.BCELoss(weight=w, reduction='sum')(out.detach(), torch.tensor([0.0, 1.0, 1.0])).item() > 0)
print(list(nn.BCELoss(weight=w).state_dict().keys()))
