# covers: ELU, CELU, SELU, GLU, Hardtanh, ReLU6, Hardswish, Hardsigmoid, Mish, Softplus, Softsign, Softmin, Softmax2d, Tanhshrink, Threshold, LogSigmoid, Hardshrink, Softshrink, PReLU, RReLU modules (repr, forward, backward)
import torch
import torch.nn as nn

torch.manual_seed(10)
x = torch.linspace(-3, 3, 9)
mods = [nn.ELU(), nn.ELU(alpha=0.5, inplace=True), nn.CELU(2.0), nn.SELU(), nn.SELU(inplace=True),
        nn.Hardtanh(), nn.Hardtanh(-2, 2.5), nn.ReLU6(), nn.ReLU6(inplace=True), nn.Hardswish(), nn.Hardsigmoid(),
        nn.Mish(), nn.Softplus(), nn.Softplus(beta=2, threshold=5), nn.Softsign(), nn.Tanhshrink(),
        nn.Threshold(0.5, -1.0), nn.Threshold(0.1, 20, inplace=True), nn.LogSigmoid(), nn.Hardshrink(),
        nn.Hardshrink(1.2), nn.Softshrink(), nn.Softshrink(0.9)]
for m in mods:
    xi = x.clone().requires_grad_()
    y = m(xi * 1.0)
    y.sum().backward()
    print(m)
    print([round(v, 4) for v in y.tolist()])
    print([round(v, 4) for v in xi.grad.tolist()])
g = nn.GLU()
print(g, nn.GLU(dim=0))
gi = torch.randn(2, 6, requires_grad=True)
go = g(gi)
print(go.detach())
go.sum().backward()
print(gi.grad)
print(nn.GLU(0)(torch.randn(4, 3)).shape)
sm = nn.Softmin(dim=1)
print(sm, nn.Softmin())
s = torch.randn(2, 4)
print(sm(s))
s2 = nn.Softmax2d()
print(s2)
z = torch.randn(1, 3, 2, 2)
print(s2(z).sum(1))
p = nn.PReLU()
p3 = nn.PReLU(3, init=0.1)
print(p, p3, p.weight, list(p3.state_dict().keys()))
pi = torch.randn(2, 3, 2, requires_grad=True)
po = p3(pi)
po.sum().backward()
print(po.detach()[0], p3.weight.grad)
print(p(torch.tensor([-2.0, 3.0])))
r = nn.RReLU(0.1, 0.3)
print(r, nn.RReLU(inplace=True))
r.eval()
print(r(torch.tensor([-1.0, 2.0, -4.0])))
r.train()
ro = r(torch.tensor([-1.0, 2.0, -4.0, -5.0]))
print(bool(((ro[0] <= -0.1) & (ro[0] >= -0.3)).item()), ro[1])
try:
    nn.Softmax2d()(torch.randn(2, 2))
except AssertionError as e:
    print('AssertionError', e)
try:
    nn.Hardtanh(1.0, 0.5)
except AssertionError:
    print('AssertionError')
try:
    nn.GLU()(torch.randn(2, 3))
except RuntimeError:
    print('RuntimeError')
