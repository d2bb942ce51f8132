# teaches: guards and recompiles - a new input shape and a new Python constant each fail a guard of the cached graph
# look for: amber marks on the lines whose guards failed; Guards and recompiles lists each failing guard with what it expected
import torch


@torch.compile
def scale_shift(x, scale):
    y = x * scale + 1.0
    return torch.nn.functional.gelu(y).sum(dim=-1)


a = scale_shift(torch.randn(8, 32), 2)     # compile 0/0: x is f32[8, 32], scale == 2
b = scale_shift(torch.randn(8, 32), 2)     # cached: every guard holds
c = scale_shift(torch.randn(8, 32), 3)     # scale changed: recompile 0/1
d = scale_shift(torch.randn(16, 32), 3)    # the size changed: recompile 0/2 with a dynamic size
e = scale_shift(torch.randn(24, 32), 3)    # cached: the dynamic entry covers it
print(a.shape, c.shape, d.shape, e.shape)
