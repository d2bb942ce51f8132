# RNG stream consumption of DataLoader/samplers interleaved with other random ops
import torch
from torch.utils.data import DataLoader, TensorDataset, RandomSampler, SubsetRandomSampler, random_split

torch.manual_seed(123)
ds = TensorDataset(torch.arange(13))
a = DataLoader(ds, batch_size=4, shuffle=True)
b = DataLoader(ds, batch_size=5, shuffle=True, drop_last=True)
for epoch in range(2):
    print('a', [x.tolist() for (x,) in a])
    print('rand', torch.rand(2).tolist())
    print('b', [x.tolist() for (x,) in b])
# break mid-epoch, then a fresh epoch
for i, (x,) in enumerate(a):
    print('partial', x.tolist())
    if i == 1:
        break
print('after break', torch.randint(0, 1000, (3,)).tolist())
it = iter(a)
print('iter made', torch.randint(0, 1000, (2,)).tolist())
print('first', next(it)[0].tolist())
# sampler with replacement and more samples than the data
loader = DataLoader(ds, batch_size=10, sampler=RandomSampler(ds, replacement=True, num_samples=70))
print([x.tolist() for (x,) in loader])
print(list(SubsetRandomSampler(torch.tensor([5, 6, 7]))))
print(list(RandomSampler(range(3), num_samples=8)))
parts = random_split(ds, [0.5, 0.25, 0.25])
print([p.indices for p in parts])
print(torch.randn(2).tolist())
