# Many lowerings in one graph: pointwise ops, reductions, softmax, layer_norm, views, an extern.
import torch
import torch.nn.functional as F


def f(x, w):
    a = torch.sigmoid(x) * 2 + x.exp() - 0.5 * x
    b = a.sum(-1, keepdim=True)
    c = F.gelu(a / b, approximate='tanh')
    d = c.transpose(0, 1)[1:, ::2]
    e = x.relu().chunk(2, dim=1)
    return (d, e[0] @ w, torch.softmax(x, dim=-1), x.mean(dim=1), x.var(1), F.layer_norm(x, (8,)),
            x.amax(0), F.log_softmax(x, 0), torch.where(x > 0, x, -x), x.clamp(-0.5, 0.5), F.silu(x).view(2, 16).std(1))


torch.manual_seed(0)
cf = torch.compile(f)
x = torch.randn(4, 8)
w = torch.randn(4, 3)
cf(x, w)
got = cf(x, w)
want = f(x, w)
for i, (a, b) in enumerate(zip(got, want)):
    print(i, tuple(a.shape), torch.allclose(a, b, rtol=1e-5, atol=1e-6))
