# DataLoader over a TensorDataset: sequential / shuffled epochs, drop_last, len()
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
x = torch.arange(20, dtype=torch.float32).reshape(10, 2)
y = torch.arange(10)
ds = TensorDataset(x, y)
print(len(ds))
print(ds[3])

loader = DataLoader(ds, batch_size=4)
print(len(loader))
for xb, yb in loader:
    print(xb.shape, yb.tolist())

loader = DataLoader(ds, batch_size=3, shuffle=True)
for epoch in range(3):
    print('epoch', epoch, [yb.tolist() for _, yb in loader])
print(torch.rand(2))

loader = DataLoader(ds, batch_size=3, shuffle=True, drop_last=True)
print(len(loader))
for epoch in range(2):
    for i, (xb, yb) in enumerate(loader):
        print(epoch, i, xb.sum().item(), yb.tolist())

# batch_size=None: no auto-collation (default_convert)
loader = DataLoader(ds, batch_size=None)
print(len(loader))
first = next(iter(loader))
print(type(first).__name__, first)

# a plain list dataset
loader = DataLoader(list(range(7)), batch_size=2, shuffle=True)
print([b.tolist() for b in loader])
loader = DataLoader([1.5, 2.5, 3.5], batch_size=2)
print(list(loader))

# big shuffle (mnist-sized index permutation)
torch.manual_seed(1)
loader = DataLoader(TensorDataset(torch.arange(5000)), batch_size=1000, shuffle=True)
for (b,) in loader:
    print(b[:5].tolist(), b.sum().item())
print(torch.randint(0, 100, (3,)).tolist())
