# covers: nonzero (default and as_tuple), argwhere, count_nonzero, nonzero on bool masks, indices used for gathering, unique, topk, sort
import torch

torch.manual_seed(15)
x = torch.tensor([[0, 1, 0], [2, 0, 3]])
print(x.nonzero())
print(torch.nonzero(x, as_tuple=True))
print(torch.nonzero(x > 1), (x > 1).nonzero().shape, torch.argwhere(x))
v = torch.tensor([0.0, 1.5, 0.0, -2.0])
idx = v.nonzero().squeeze(1)
print(idx, v[idx], v.nonzero(as_tuple=True)[0])
print(torch.count_nonzero(x), torch.count_nonzero(x, dim=0), torch.zeros(3).nonzero().shape)
r = torch.randn(6)
print(r, (r > 0).nonzero().flatten().tolist())
vals, inds = r.topk(3)
print(vals, inds)
s, si = torch.sort(r)
print(s, si, r.sort(descending=True).values)
print(torch.unique(torch.tensor([3, 1, 3, 2, 1])), torch.argsort(torch.tensor([3.0, 1.0, 2.0])))
