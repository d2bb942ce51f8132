# covers: F.celu/selu/glu/softmin/softshrink/tanhshrink/threshold/rrelu/hardshrink/prelu/logsigmoid/softsign and in-place variants (relu_, elu_, selu_, celu_, hardtanh_, leaky_relu_, threshold_, rrelu_), F.alpha_dropout, nn.AlphaDropout, nn.FeatureAlphaDropout, F.gumbel_softmax shape; grad_fn names and exact values of the ATen kernels 1.13 calls
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(16)
x = torch.linspace(-2, 2, 7, requires_grad=True)
fns = [
    ('celu', lambda t: F.celu(t, 0.5)), ('selu', F.selu), ('softmin', lambda t: F.softmin(t, dim=0)),
    ('softshrink', lambda t: F.softshrink(t, 0.7)), ('tanhshrink', F.tanhshrink),
    ('threshold', lambda t: F.threshold(t, 0.3, -0.5)), ('hardshrink', lambda t: F.hardshrink(t, 1.0)),
    ('prelu', lambda t: F.prelu(t, torch.tensor([0.2]))), ('logsigmoid', F.logsigmoid), ('softsign', F.softsign),
    ('rrelu_eval', lambda t: F.rrelu(t, 0.1, 0.3)), ('softmin_dtype', lambda t: F.softmin(t, 0, dtype=torch.float64)),
]
for name, fn in fns:
    x.grad = None
    y = fn(x)
    y.sum().backward()
    print(name, y.tolist(), x.grad.tolist())
g = torch.randn(2, 4, requires_grad=True)
print(F.glu(g).detach(), F.glu(g, 0).detach())
for name, fn in [('relu_', F.relu_), ('elu_', F.elu_), ('selu_', F.selu_), ('celu_', lambda t: F.celu_(t, 2.0)),
                 ('hardtanh_', lambda t: F.hardtanh_(t, -0.5, 0.5)), ('leaky_relu_', lambda t: F.leaky_relu_(t, 0.2)),
                 ('threshold_', lambda t: F.threshold_(t, 0.0, 9.0)), ('relu_inplace_kw', lambda t: F.threshold(t, 0.5, 0.0, inplace=True))]:
    t = torch.linspace(-1, 1, 5)
    r = fn(t)
    print(name, t.tolist(), r is t)
t = torch.linspace(-1, 1, 5)
F.rrelu_(t)
print(t.tolist())
print(F.softmin(torch.tensor([[1.0, 2.0], [3.0, 5.0]]), dim=1))
ad = nn.AlphaDropout(0.2)
fad = nn.FeatureAlphaDropout(0.5)
print(ad, fad)
ad.eval()
ones = torch.ones(4, 5)
print(torch.equal(ad(ones), ones))
ad.train()
o = ad(ones)
print(o.shape, len(set([round(v, 4) for v in o.flatten().tolist()])) <= 2)
print(F.alpha_dropout(ones, 0.5).shape, torch.equal(F.alpha_dropout(ones, 0.5, training=False), ones))
print(fad(torch.ones(2, 3, 4)).shape)
print(F.feature_alpha_dropout(torch.ones(2, 3, 2), 0.5, training=True).shape)
gs = F.gumbel_softmax(torch.randn(2, 5), tau=0.5, hard=True)
print(gs.shape, gs.sum(-1))
try:
    F.alpha_dropout(ones, 2.0)
except ValueError as e:
    print('ValueError', e)
try:
    F.glu(torch.tensor(1.0))
except RuntimeError as e:
    print('RuntimeError', e)

# grad_fn names of the ATen kernels 1.13 calls
r = torch.randn(3, 4, 6, requires_grad=True)
for name, t in [('glu', F.glu(r)), ('glu1', F.glu(r, 1)), ('softshrink', F.softshrink(r, 0.7)),
                ('softshrink0', F.softshrink(r, lambd=0.0)), ('GLU', nn.GLU(dim=0)(r[:2])),
                ('Softshrink', nn.Softshrink(0.25)(r))]:
    print(name, tuple(t.shape), type(t.grad_fn).__name__, t.reshape(-1)[:6].tolist())
    print(torch.autograd.grad(t.pow(2).sum(), r)[0].reshape(-1)[:6].tolist())
for bad in [lambda: F.glu(r, 1 + 0 * 2 + 1), lambda: F.glu(torch.tensor(1.0)), lambda: F.softshrink(r, -1.0)]:
    try:
        bad()
    except RuntimeError as e:
        print('RuntimeError', str(e).split('\n')[0])
