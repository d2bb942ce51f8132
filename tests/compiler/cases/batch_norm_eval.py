# batch_norm in eval mode as a kernel: per channel x * alpha + beta with eager's alpha = (1 /
# sqrt(var + eps)) * weight and beta = bias - mean * alpha; 2-D, 3-D and 4-D inputs, with and
# without affine parameters, after training steps moved the running statistics, fused with the
# conv's relu and a residual add. Training mode stays eager (its running statistics change).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, affine):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, 3, padding=1)
        self.bn = nn.BatchNorm2d(3, affine=affine, eps=1e-3)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x))) + x


bn1 = nn.BatchNorm1d(5)
for m in (bn1,):
    for _ in range(3):
        m(torch.randn(8, 5) * 3 + 1)
bn1.eval()


def norm1d(x):
    return bn1(x) * 2


def functional(x, rm, rv, w, b):
    return F.batch_norm(x, rm, rv, w, b, False, 0.1, 1e-5), F.batch_norm(x, rm, rv, None, None, False, 0.1, 0.5)


for affine in (True, False):
    blk = Block(affine)
    for _ in range(3):
        blk(torch.randn(4, 3, 6, 6))
    blk.eval()
    cb = torch.compile(blk)
    for shape in [(2, 3, 6, 6), (1, 3, 5, 7)]:
        x = torch.randn(shape)
        print("block", "affine" if affine else "plain", shape, torch.allclose(cb(x), blk(x), rtol=1e-6, atol=1e-6))
cn = torch.compile(norm1d)
for x in (torch.randn(4, 5), torch.randn(2, 5, 3), torch.tensor([[float("inf"), float("nan"), -0.0, 0.0, 1e38]])):
    print("norm1d", tuple(x.shape), torch.allclose(cn(x), norm1d(x), rtol=1e-6, atol=1e-6, equal_nan=True))
cf = torch.compile(functional)
rm, rv, w, b = torch.randn(4), torch.rand(4) + 0.1, torch.randn(4), torch.randn(4)
for x in (torch.randn(3, 4), torch.randn(2, 4, 5, 2)):
    got, want = cf(x, rm, rv, w, b), functional(x, rm, rv, w, b)
    print("functional", tuple(x.shape), [torch.allclose(p, q, rtol=1e-6, atol=1e-6) for p, q in zip(got, want)])
