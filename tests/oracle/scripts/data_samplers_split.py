# samplers, BatchSampler, random_split (lengths and fractions), seeds
import torch
from torch.utils.data import (TensorDataset, DataLoader, random_split, Sampler, SequentialSampler,
                              RandomSampler, SubsetRandomSampler, WeightedRandomSampler, BatchSampler)

torch.manual_seed(7)
data = list(range(10))
print(list(SequentialSampler(data)))
rs = RandomSampler(data)
print(len(rs), list(rs), list(rs))
rs = RandomSampler(data, replacement=True, num_samples=40)
print(len(rs), list(rs))
rs = RandomSampler(data, num_samples=23)
print(len(rs), list(rs))
print(list(SubsetRandomSampler([3, 5, 7, 9])))
ws = WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 8)
print(len(ws), list(ws))
ws = WeightedRandomSampler([0.9, 0.4, 0.05, 0.2, 0.3, 0.1], 5, replacement=False)
print(list(ws))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False)))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=True)))
print(len(BatchSampler(range(10), 3, False)), len(BatchSampler(range(10), 3, True)))
for bad in [dict(batch_size=0, drop_last=False), dict(batch_size=True, drop_last=False),
            dict(batch_size=2, drop_last=1)]:
    try:
        BatchSampler(range(4), **bad)
    except ValueError as e:
        print('ValueError:', e)
try:
    RandomSampler(data, num_samples=0)
except ValueError as e:
    print('ValueError:', e)
try:
    RandomSampler(data, replacement=1)
except TypeError as e:
    print('TypeError:', e)
try:
    WeightedRandomSampler([[1.0]], 2)
except ValueError as e:
    print('ValueError:', e)

ds = TensorDataset(torch.arange(12).float(), torch.arange(12))
a, b = random_split(ds, [8, 4])
print(len(a), len(b), a.indices, b.indices)
parts = random_split(range(30), [0.3, 0.3, 0.4])
print([len(p) for p in parts], [list(p) for p in parts])
parts = random_split(range(11), [0.5, 0.5])
print([p.indices for p in parts])
try:
    random_split(range(5), [2, 2])
except ValueError as e:
    print('ValueError:', e)
try:
    random_split(range(5), [1.5, -0.5])
except ValueError as e:
    print('ValueError:', e)

# loaders over splits / custom samplers
train_loader = DataLoader(a, batch_size=3, shuffle=True)
for epoch in range(2):
    print([yb.tolist() for _, yb in train_loader])
print([y.tolist() for _, y in DataLoader(ds, batch_size=5, sampler=SubsetRandomSampler(list(range(0, 12, 2))))])
print([y.tolist() for _, y in DataLoader(ds, batch_sampler=BatchSampler(RandomSampler(ds), 4, False))])
print([y.tolist() for _, y in DataLoader(ds, batch_size=4, sampler=WeightedRandomSampler([1.0] * 12, 6))])


class EvenSampler(Sampler):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(0, self.n, 2))

    def __len__(self):
        return (self.n + 1) // 2


dl = DataLoader(ds, batch_size=2, sampler=EvenSampler(12))
print(len(dl), [y.tolist() for _, y in dl])
# workers are in-process in Fuselab; same batches in the same order
dl = DataLoader(ds, batch_size=5, shuffle=True, num_workers=2)
print([y.tolist() for _, y in dl])
print(torch.rand(3))
