# covers: nn.Bilinear (init, repr), nn.CosineSimilarity, nn.PairwiseDistance, F.pairwise_distance, F.pdist, nn.Unflatten, nn.Fold / nn.Unfold and F.fold / F.unfold; grad_fn names and exact values of the ATen kernels 1.13 calls
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

# grad_fn names and exact values of the ATen kernels 1.13 calls (im2col / col2im)
im = torch.randn(2, 3, 6, 7, requires_grad=True)
cols = F.unfold(im, (2, 3), dilation=(2, 1), padding=1, stride=(1, 2))
print(tuple(cols.shape), type(cols.grad_fn).__name__, cols[1, 4, :8].tolist())
back = F.fold(cols, (6, 7), (2, 3), dilation=(2, 1), padding=1, stride=(1, 2))
print(tuple(back.shape), type(back.grad_fn).__name__, back[0, 2, 3].tolist())
print(torch.autograd.grad(back.pow(2).sum(), im)[0][1, 0, 2].tolist())
u3 = F.unfold(im[0], 3)
print(tuple(u3.shape), type(u3.grad_fn).__name__)
f2 = F.fold(u3, [6, 7], 3)
print(tuple(f2.shape), type(f2.grad_fn).__name__, f2[1, 2].tolist())
print(nn.Fold((4, 5), 2, stride=2, padding=(0, 1))(torch.randn(1, 8, 6)).shape)
for bad in [lambda: F.unfold(torch.randn(3, 4), 2), lambda: F.fold(torch.randn(2, 5, 6), (4, 5), 2)]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, str(e).split('\n')[0])
