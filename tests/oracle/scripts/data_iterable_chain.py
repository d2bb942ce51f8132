# IterableDataset / ChainDataset / generator datasets, len(), default_convert without batching
import torch
from torch.utils.data import IterableDataset, ChainDataset, DataLoader, Dataset, TensorDataset


class Counter(IterableDataset):
    def __init__(self, start, end):
        super().__init__()
        self.start = start
        self.end = end

    def __iter__(self):
        return iter(range(self.start, self.end))

    def __len__(self):
        return self.end - self.start


class Pairs(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield {'idx': i, 'vec': torch.arange(3) * i, 'tag': ('a', i)}


ds = Counter(3, 10)
print(list(DataLoader(ds)))
print(list(DataLoader(ds, batch_size=None)))
print(list(DataLoader(ds, batch_size=3)), len(DataLoader(ds, batch_size=3)))
print(list(DataLoader(ds, batch_size=3, drop_last=True)), len(DataLoader(ds, batch_size=3, drop_last=True)))
chain = Counter(0, 2) + Counter(10, 13)
print(type(chain).__name__, len(chain), list(chain))
print(list(DataLoader(ChainDataset([Counter(0, 3), Counter(5, 7)]), batch_size=2)))
for b in DataLoader(Pairs(5), batch_size=2):
    print(b)
for b in DataLoader(Pairs(2), batch_size=None):
    print(b)
try:
    DataLoader(ds, sampler=[0, 1])
except ValueError as e:
    print('ValueError:', e)
try:
    DataLoader(ds, batch_sampler=[[0, 1]])
except ValueError as e:
    print('ValueError:', e)


class WithGetitems(Dataset):
    def __init__(self):
        self.data = torch.arange(10) * 10

    def __len__(self):
        return 10

    def __getitem__(self, i):
        return self.data[i]

    def __getitems__(self, idxs):
        print('getitems', idxs)
        return [self.data[i] for i in idxs]


print(list(DataLoader(WithGetitems(), batch_size=4)))
ds = TensorDataset(torch.arange(6), torch.arange(6) * 2)
it = iter(DataLoader(ds, batch_size=4))
print(next(it), next(it))
try:
    next(it)
except StopIteration:
    print('StopIteration')
try:
    TensorDataset(torch.zeros(3), torch.zeros(4))
except AssertionError as e:
    print('AssertionError:', e)
print(ds[torch.tensor([0, 2])], ds[1:3])
