# covers: nn.EmbeddingBag (modes sum/mean/max, offsets, 2D input, per_sample_weights, padding_idx, include_last_offset, from_pretrained, repr), F.embedding_bag
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(14)
eb = nn.EmbeddingBag(10, 3, mode='sum')
print(eb, nn.EmbeddingBag(5, 2), nn.EmbeddingBag(6, 2, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, mode='max', padding_idx=2))
print(eb.weight[:3])
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 4])
out = eb(inp, offsets)
print(out.detach())
out.sum().backward()
print(eb.weight.grad)
print(list(eb.state_dict().keys()))
em = nn.EmbeddingBag(10, 3)
print(em(torch.tensor([[1, 2], [3, 3], [0, 9]])).detach())
emax = nn.EmbeddingBag(10, 3, mode='max')
o = emax(inp, offsets)
print(o.detach())
o.sum().backward()
print(emax.weight.grad[2:6])
w = torch.tensor([0.5, 1.0, 2.0, 0.1, 1.0, 1.0, 1.0, 3.0])
print(eb(inp, offsets, per_sample_weights=w).detach())
ep = nn.EmbeddingBag(10, 3, mode='sum', padding_idx=2)
print(ep, ep.weight[2])
print(ep(inp, offsets).detach())
el = nn.EmbeddingBag(10, 3, mode='mean', include_last_offset=True)
print(el(inp, torch.tensor([0, 3, 8])).detach())
pre = torch.arange(12.0).reshape(4, 3)
fp = nn.EmbeddingBag.from_pretrained(pre)
print(fp, fp.weight.requires_grad)
print(fp(torch.tensor([[0, 3], [1, 2]])))
print(F.embedding_bag(torch.tensor([0, 1, 1, 3]), pre, torch.tensor([0, 1]), mode='sum'))
try:
    em(torch.tensor([[1, 2]]), torch.tensor([0]))
except ValueError as e:
    print('ValueError', e)
try:
    em(torch.tensor([1, 2]))
except ValueError as e:
    print('ValueError', e)
try:
    nn.EmbeddingBag(5, 2, mode='median')(torch.tensor([1]), torch.tensor([0]))
except ValueError as e:
    print('ValueError', e)
try:
    em(inp, offsets, per_sample_weights=w)
except NotImplementedError as e:
    print('NotImplementedError', e)
