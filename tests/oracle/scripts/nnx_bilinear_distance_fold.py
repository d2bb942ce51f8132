# covers: nn.Bilinear (init, repr), nn.CosineSimilarity, nn.PairwiseDistance, F.pairwise_distance, F.pdist, nn.Unflatten, nn.Fold / nn.Unfold and F.fold / F.unfold
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(15)
bl = nn.Bilinear(3, 2, 4)
print(bl, nn.Bilinear(2, 2, 1, bias=False))
print(bl.weight[0], bl.bias)
a = torch.randn(5, 3, requires_grad=True)
b = torch.randn(5, 2)
o = bl(a, b)
print(o.detach())
o.sum().backward()
print(a.grad[0], bl.bias.grad)
print(list(bl.state_dict().keys()))
cs = nn.CosineSimilarity(dim=1, eps=1e-6)
pd = nn.PairwiseDistance(p=1.0, keepdim=True)
print(cs, pd, nn.PairwiseDistance())
print(cs(a, torch.randn(5, 3)).detach())
print(pd(a, torch.ones(5, 3)).detach().flatten())
print(F.pairwise_distance(a, torch.zeros(5, 3), p=3.0).detach())
print(F.pdist(torch.arange(6.0).reshape(3, 2)))
uf = nn.Unflatten(1, (2, 3))
print(uf, nn.Unflatten(-1, [2, 2]))
print(uf(torch.arange(12.0).reshape(2, 6)).shape)
try:
    nn.Unflatten(1, 6)
except TypeError as e:
    print('TypeError', e)
try:
    nn.Unflatten(1, (2, 3.0))
except TypeError as e:
    print('TypeError', e)
unf = nn.Unfold(kernel_size=(2, 3), padding=1, stride=(1, 2))
fold = nn.Fold(output_size=(4, 5), kernel_size=(2, 3), padding=1, stride=(1, 2))
print(unf, fold)
x = torch.arange(40.0).reshape(2, 1, 4, 5).requires_grad_()
cols = unf(x)
print(cols.shape)
print(cols[0].detach())
back = fold(cols)
print(back[1].detach())
(back * back).sum().backward()
print(x.grad[0])
u2 = F.unfold(torch.arange(18.0).reshape(2, 3, 3), 2, dilation=2, padding=1)
print(u2.shape, u2[:, 0])
print(F.fold(torch.ones(1, 4, 9), (4, 4), 2, stride=1))
print(F.fold(torch.ones(8, 4), 3, 2, dilation=1).shape)
try:
    F.fold(torch.ones(1, 5, 9), (4, 4), 2)
except RuntimeError:
    print('RuntimeError')
