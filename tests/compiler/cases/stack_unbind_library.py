# stack (a new dim; a select per tensor) and unbind (a tuple of views), as llama2.c's rotary
# embedding uses them (reshape to pairs, unbind(-1), stack(dim=-1), flatten), dynamic sizes; and
# the ops that are library calls by design inside a compiled graph: conv2d (its bias, relu and
# residual add fused after it), index_add with repeated indices (an embedding's gradient), baddbmm.
import torch
import torch.nn.functional as F


def rotary(x, y):
    a, b = x.reshape(x.shape[:-1] + (-1, 2)).unbind(-1)
    u = torch.stack([a * 2 - b, a + b], dim=-1).flatten(2)
    v = torch.stack((x, y, x * y))
    return u, v, torch.stack([x.transpose(0, 2), y.transpose(0, 2)], 1) + 0


torch.manual_seed(0)
w = torch.randn(4, 3, 3, 3)
bias = torch.randn(4)


def library(img, idx, src, m1, m2, base):
    c = F.relu(F.conv2d(img, w, bias, padding=1)) + 1
    g = torch.zeros(6, 3).index_add(0, idx, src) * 2
    return c, g, torch.baddbmm(base, m1, m2) - 1


cr = torch.compile(rotary)
for n in (3, 5, 3, 6):
    x, y = torch.randn(2, n, 4), torch.randn(2, n, 4)
    print("rotary", n, [torch.equal(p, q) for p, q in zip(cr(x, y), rotary(x, y))])
cl = torch.compile(library)
for n in (5, 7, 5):
    args = (torch.randn(2, 3, n, n), torch.tensor([0, 5, 0, 2, 0]), torch.randn(5, 3), torch.randn(2, 3, 4), torch.randn(2, 4, 5), torch.randn(2, 3, 5))
    print("library", n, [torch.allclose(p, q, rtol=1e-6, atol=1e-6) for p, q in zip(cl(*args), library(*args))])
try:
    cl(torch.randn(2, 3, 5, 5), torch.tensor([0, 6]), torch.randn(2, 3), torch.randn(2, 3, 4), torch.randn(2, 4, 5), torch.randn(2, 3, 5))
except IndexError as e:
    print("IndexError", e)
