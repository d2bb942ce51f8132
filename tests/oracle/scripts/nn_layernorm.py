# covers: nn.LayerNorm (repr, weight/bias, eps, elementwise_affine=False, multi-dim normalized_shape), F.layer_norm, manual computation match
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(31)
ln = nn.LayerNorm(6)
print(ln)
print(ln.weight, ln.bias, ln.eps, ln.normalized_shape)
x = torch.randn(2, 3, 6) * 3 + 1
y = ln(x)
print(y[0])
print(bool(y.mean(-1).abs().max() < 1e-5), y.std(-1, unbiased=False))
mu = x.mean(-1, keepdim=True)
var = x.var(-1, keepdim=True, unbiased=False)
manual = (x - mu) / torch.sqrt(var + 1e-5)
print(torch.allclose(y, manual, atol=1e-5))
with torch.no_grad():
    ln.weight.fill_(2.0)
    ln.bias.fill_(0.5)
print(ln(x)[0, 0])
ln2 = nn.LayerNorm([3, 6], eps=1e-6, elementwise_affine=False)
print(ln2, ln2.weight)
print(ln2(x).mean((-2, -1)).abs().max().item() < 1e-5, ln2(x).shape)
print(F.layer_norm(x, (6,))[1, 2], torch.allclose(F.layer_norm(x, (6,), ln.weight, ln.bias), ln(x)))
ln.zero_grad(set_to_none=True)
out = ln(x).sum()
out.backward()
print(ln.weight.grad, ln.bias.grad)
