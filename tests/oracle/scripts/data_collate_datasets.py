# default_collate of dicts / tuples / lists / numbers / strings, custom datasets
import torch
import torch.utils.data
from torch.utils.data import Dataset, IterableDataset, DataLoader, ConcatDataset, Subset
from torch.utils.data import default_collate, default_convert


class DictDS(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {'x': torch.full((2,), float(i)), 'label': i, 'w': i * 0.5,
                'name': 'item%d' % i, 'pair': (i, [i, i + 1])}


ds = DictDS(5)
for batch in DataLoader(ds, batch_size=2):
    print(sorted(batch.keys()))
    print(batch['x'])
    print(batch['label'], batch['w'])
    print(batch['name'], batch['pair'])

print(default_collate([(1, 2.0), (3, 4.0)]))
print(default_collate([[torch.tensor(1), True], [torch.tensor(2), False]]))
print(default_collate([torch.ones(2, 2), torch.zeros(2, 2)]).shape)
print(default_convert((1, torch.tensor(2))))
print(default_convert({'a': [1, 2]}))
try:
    default_collate([None, None])
except TypeError as e:
    print('TypeError:', e)
try:
    default_collate([[1, 2], [3]])
except RuntimeError as e:
    print('RuntimeError:', e)


class Squares(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield torch.tensor([i, i * i])


print([b.tolist() for b in DataLoader(Squares(7), batch_size=3)])
print([b.tolist() for b in DataLoader(Squares(7), batch_size=3, drop_last=True)])
print([b.tolist() for b in DataLoader(Squares(3), batch_size=None)])
try:
    DataLoader(Squares(3), shuffle=True)
except ValueError as e:
    print('ValueError:', e)

cat = ConcatDataset([list(range(3)), list(range(10, 14)), [100]])
print(len(cat), cat.cumulative_sizes, [cat[i] for i in range(len(cat))], cat[-1], cat[-8])
both = DictDS(2) + DictDS(3)
print(type(both).__name__, len(both), both[4]['label'])

sub = Subset(list(range(100, 110)), [9, 0, 4])
print(len(sub), sub[0], sub[2], list(DataLoader(sub, batch_size=2)))

# custom collate_fn
def collate_pad(batch):
    m = max(len(b) for b in batch)
    return torch.tensor([b + [0] * (m - len(b)) for b in batch])

seqs = [[1], [2, 3], [4, 5, 6], [7, 8]]
for b in DataLoader(seqs, batch_size=2, collate_fn=collate_pad):
    print(b)
print(list(DataLoader(seqs, batch_size=2, collate_fn=lambda b: b)))

# argument errors
for kwargs in [dict(num_workers=-1), dict(timeout=-1), dict(shuffle=True, sampler=[0, 1]),
               dict(batch_sampler=[[0]], batch_size=2), dict(batch_size=None, drop_last=True),
               dict(persistent_workers=True), dict(prefetch_factor=3)]:
    try:
        DataLoader(seqs, **kwargs)
    except ValueError as e:
        print('ValueError:', e)
dl = DataLoader(seqs)
try:
    dl.batch_size = 3
except ValueError as e:
    print('ValueError:', e)
dl.num_workers = 0
print(dl.batch_size, dl.drop_last, dl.num_workers, type(dl.sampler).__name__,
      type(dl.batch_sampler).__name__, len(dl))
print(torch.utils.data.get_worker_info())
