# covers: comparison ops producing bool tensors (== != < <= > >=), eq/ne/gt/lt, allclose (rtol/atol), isclose, equal, any/all, isnan/isinf/isfinite
import torch

torch.manual_seed(10)
x = torch.tensor([1.0, 2.0, 3.0, 4.0])
y = torch.tensor([1.0, 2.5, 3.0, 3.5])
print(x == y, x != y, x < y, x <= y, x > y, x >= y)
print(x.eq(y), x.ne(y), x.gt(2), x.lt(2), x.ge(3), x.le(3), torch.eq(x, 3))
print(x == 2, 2 < x, (x > 1) & (x < 4), ((x > 3) | (x < 2)).sum())
print(torch.allclose(x, y), torch.allclose(x, x + 1e-7), torch.allclose(x, y, atol=0.6), torch.allclose(x, y, rtol=0.2))
print(torch.isclose(x, y), torch.isclose(x, y, atol=0.5), torch.equal(x, x.clone()), torch.equal(x, y))
print((x == y).any(), (x == y).all(), (x > 0).all(), bool((x > 5).any()), (x == y).any().item())
z = torch.tensor([1.0, float("nan"), float("inf"), -float("inf")])
print(torch.isnan(z), torch.isinf(z), torch.isfinite(z), z == z, torch.nan_to_num(z))
print(torch.allclose(z, z), torch.allclose(z, z, equal_nan=True))
a = torch.randn(3, 3)
print(torch.allclose(a @ torch.eye(3), a), torch.allclose(a.sum(), a.sum(0).sum()))
print(torch.tensor([1, 2]) == torch.tensor([1.0, 2.0]), torch.tensor([True]) == 1)
if (x > 0).all():
    print("all positive")
print(x[x >= 2.5], torch.count_nonzero(x > 2), (x > 2).sum().item())
