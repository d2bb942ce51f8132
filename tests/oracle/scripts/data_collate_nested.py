# default_collate / default_convert on nested structures, namedtuples, bools, strings
from collections import namedtuple
import torch
from torch.utils.data import DataLoader, default_collate, default_convert, Subset, ConcatDataset

Point = namedtuple('Point', ['x', 'y'])
batch = [Point(1, torch.tensor([1.0, 2.0])), Point(2, torch.tensor([3.0, 4.0]))]
out = default_collate(batch)
print(type(out).__name__, out)
print(default_convert(Point(0, 0)))
print(default_collate([True, False, True]))
print(default_collate([1.5, 2, 3.25]))
print(default_collate(['a', 'b']))
print(default_collate([{'a': {'b': [1, 2]}, 'c': 'x'}, {'a': {'b': [3, 4]}, 'c': 'y'}]))
print(default_collate([[[1, 2], [3]], [[4, 5], [6]]]))
print(default_collate([torch.tensor(1.5), torch.tensor(2.5)]))
print(default_collate([torch.zeros(2, dtype=torch.int32), torch.ones(2, dtype=torch.int32)]).dtype)
print(default_convert([1, (2, 3), {'k': (4,)}]))
print(default_convert('text'), default_convert(3.5), default_convert(None))

data = [{'id': i, 'feat': torch.tensor([float(i), float(-i)]), 'ok': i % 2 == 0} for i in range(7)]
for b in DataLoader(data, batch_size=3):
    print(b)
cat = ConcatDataset([Subset(data, [6, 5]), data[:2]])
print([b['id'].tolist() for b in DataLoader(cat, batch_size=2)])
print(next(iter(DataLoader([Point(i, i * 2.0) for i in range(4)], batch_size=4))))
