# covers: autograd through views/indexing/cat/max/where/matmul/mean, grad_fn in reprs, detach blocking, requires_grad propagation, no_grad
import torch

torch.manual_seed(14)
x = torch.randn(2, 3, requires_grad=True)
y = x[:, 1:] * 2
z = torch.cat([y, x[:, :1]], dim=1)
r = z.max(dim=1).values.sum() + torch.where(x > 0, x, x * 0.1).mean()
print(y, z, r)
r.backward()
print(x.grad)
w = torch.randn(3, 3, requires_grad=True)
h = x.detach() @ w
print(h.requires_grad, x.detach().requires_grad, (x.detach() * 2).requires_grad)
h.sum().backward()
print(w.grad)
with torch.no_grad():
    k = x * 2
print(k.requires_grad, k.grad_fn)
e = torch.randn(3, requires_grad=True)
f = (e * e).sum()
f.backward()
print(torch.allclose(e.grad, 2 * e.detach()), e.grad.shape)
a = torch.ones(2, requires_grad=True)
for _ in range(3):
    (a * 2).sum().backward()
print(a.grad)
lin = torch.randn(4, 2, requires_grad=True)
t = lin.t().reshape(-1).view(2, 4)
t.mean().backward()
print(lin.grad)
s = torch.randn(3, requires_grad=True)
out = s.exp() / s.exp().sum()
out[0].backward()
print(s.grad, torch.softmax(s.detach(), 0))
c = torch.tensor(1.0, requires_grad=True)
d = c * 2
d2 = d.detach().requires_grad_()
print(d2.is_leaf, d2.requires_grad, d.is_leaf)
