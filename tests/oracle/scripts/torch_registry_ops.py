# Operators that come from LibTorch's registry (no hand-written binding): positional and keyword
# forms, defaults, overloads, out=, in-place methods, unbound Tensor methods, wrong calls.
import torch

torch.manual_seed(0)
x = torch.arange(12, dtype=torch.float32).reshape(3, 4) / 7 - 0.5
y = torch.linspace(-1, 1, 12).reshape(3, 4)

print(torch.logaddexp(x, y))
print(torch.xlogy(x.abs(), y.abs() + 1))
print(torch.heaviside(x, torch.tensor(0.5)))
print(torch.kron(torch.eye(2), torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
print(torch.logcumsumexp(x, 1))
print(torch.logcumsumexp(x, dim=0))
values, indices = torch.cummax(x, 1)
print(values, indices)
print(torch.cummin(y, dim=0).indices)
print(torch.diff(x, dim=1))
print(torch.diff(x, n=2, dim=0, prepend=x[:1]))
print(torch.rot90(x, 1, [0, 1]))
print(torch.fliplr(x), torch.flipud(x))
print(torch.take_along_dim(x, torch.tensor([[0], [2], [3]]), dim=1))
print(torch.trapz(y, dim=1), torch.trapezoid(y, dx=0.5))
print(torch.cross(torch.tensor([[1.0, 0.0, 0.0]]), torch.tensor([[0.0, 1.0, 0.0]]), dim=1))
print(torch.renorm(x, 2, 0, 1.0))
print(torch.bucketize(torch.tensor([0.1, 0.5, 0.9]), torch.tensor([0.0, 0.3, 0.6, 1.0])))
print(torch.histc(x, bins=4, min=-1, max=1))
print(torch.vander(torch.tensor([1, 2, 3]), N=3))
print(torch.cdist(x, y))
print(torch.logit(torch.tensor([0.25, 0.5, 0.75])))
print(torch.sinc(x), torch.deg2rad(x))
print(torch.special_entr(torch.tensor([0.5, 1.0])) if hasattr(torch, "special_entr") else "no special_entr")
print(torch.count_nonzero(x > 0), torch.count_nonzero(x > 0, dim=1))
print(torch.inner(x[0], y[0]), torch.vdot(x[0], y[0]))
print(torch.block_diag(torch.ones(1, 2), torch.full((2, 1), 3.0)))
print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])))
print(torch.tril_indices(3, 3), torch.triu_indices(3, 3, 1))
print(torch.atleast_2d(torch.tensor(1.5)))

# out= and in-place forms
out = torch.empty(3, 4)
r = torch.logaddexp(x, y, out=out)
print(r is out, out.sum())
z = x.clone()
print(z.logit_(eps=0.1) is z, z)
w = x.clone()
w.addcdiv_(y, y + 2, value=0.5)
print(w)
# unbound method
print(torch.Tensor.logaddexp(x, y).shape, x.fliplr().shape, x.logcumsumexp(1).shape)

# wrong calls: PyTorch's errors
for bad in [lambda: torch.logcumsumexp(x, [1]), lambda: torch.kron(x), lambda: torch.cummax(x, dim=1, bogus=2)]:
    try:
        bad()
    except TypeError as e:
        print("TypeError")
print(hasattr(torch, "logaddexp"), hasattr(torch.Tensor, "logaddexp"), hasattr(torch, "add_"))
