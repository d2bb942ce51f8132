# covers: boolean mask indexing, index tensors (1-D, 2-D, lists), combined advanced/basic indexing, gather, index_select, masked_select
import torch

torch.manual_seed(17)
x = torch.randn(4, 3)
print(x)
mask = x > 0
print(mask, x[mask], x[mask].shape)
print(x[x[:, 0] > 0], x[~mask].sum())
idx = torch.tensor([2, 0, 2])
print(x[idx], x[[0, 3]], x[:, [2, 0]], x[idx, 1])
print(x[torch.tensor([0, 1]), torch.tensor([2, 1])], x[[1, 2], [0, 0]])
print(x[torch.tensor([[0, 1], [2, 3]])].shape, x[1:, torch.tensor([0, 2])])
labels = torch.tensor([1, 0, 2, 1])
print(x[torch.arange(4), labels])
print(x.gather(1, labels.unsqueeze(1)), torch.gather(x, 0, torch.tensor([[3, 2, 1]])))
print(x.index_select(0, torch.tensor([3, 1])), torch.masked_select(x, mask))
emb = torch.arange(20.0).view(5, 4)
tokens = torch.tensor([[4, 0], [1, 1]])
print(emb[tokens], emb[tokens].shape)
b = torch.tensor([True, False, True, False])
print(x[b], x[b, 1:], x[b][:, 0])
print(x[torch.tensor([-1, -2])], torch.arange(10)[torch.arange(10) % 3 == 0])
