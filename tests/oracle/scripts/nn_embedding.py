# covers: nn.Embedding (repr, weight shape, lookup with 1-D/2-D index tensors, padding_idx), F.embedding, gradients into embedding rows
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(32)
emb = nn.Embedding(10, 4)
print(emb)
print(emb.weight.shape, emb.num_embeddings, emb.embedding_dim)
idx = torch.tensor([1, 5, 1])
print(emb(idx))
tokens = torch.tensor([[0, 2, 4], [9, 8, 7]])
out = emb(tokens)
print(out.shape, torch.equal(out[1, 0], emb.weight[9]))
pe = nn.Embedding(5, 3, padding_idx=0)
print(pe, pe.weight[0], pe(torch.tensor([0, 3])))
print(torch.equal(F.embedding(idx, emb.weight), emb(idx)))
loss = emb(torch.tensor([2, 2, 3])).sum()
loss.backward()
print(emb.weight.grad[:5])
pos = nn.Embedding(8, 4)
T = 5
h = emb(torch.tensor([[1, 2, 3, 4, 5]])) + pos(torch.arange(T))
print(h.shape, h[0, 0])
try:
    emb(torch.tensor([10]))
except IndexError:
    print("out of range index raises IndexError")
except RuntimeError:
    print("out of range index raises RuntimeError")
