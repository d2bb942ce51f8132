# Found by the 100,000-program run on the GPU machine (seed 34), both mismatches on any machine:
# - layer_norm without a bias gave -0.0 where eager gives 0.0 (eager adds the missing bias as 0):
#   remainder(x, x) is a row of -0.0 and 0.0, its layer_norm zeros, and x / that zero floor-divided
#   is -inf against eager's inf;
# - gelu(approximate='tanh') was 0.5 x (1 + tanh(u)): 1 + tanh(u) cancels for negative x, and the
#   kernel's tanh (a few ulp from eager's near -1) became 5e-5 of gelu at x = -3.2, which fmod by it
#   multiplied past the tolerance. It is now x sigmoid(2u).
import torch.nn.functional as F


def signed_zero_layer_norm(x0):
    v0 = torch.remainder(x0, x0)
    v4 = F.layer_norm(v0, v0.shape[-1:])
    return torch.div(x0, v4, rounding_mode='floor'), 1 / v4


def gelu_tanh_fmod(x0, x1, x2):
    v1 = F.gelu(x2, approximate='tanh')
    return torch.fmod(x0, v1), v1


def gelu_tanh_range(x0):
    return F.gelu(x0, approximate='tanh'), F.gelu(-x0.abs() * 4, approximate='tanh')


_check("signed_zero_layer_norm", signed_zero_layer_norm, torch.compile(signed_zero_layer_norm),
       [(238, lambda: [torch.randn(6, 3)]), (239, lambda: [torch.randn(4, 5)])])
_check("gelu_tanh_fmod", gelu_tanh_fmod, torch.compile(gelu_tanh_fmod),
       [(s, lambda: [torch.randn((3, 5, 4)), torch.randn((2, 1, 5)).double().transpose(-1, -2), torch.randn((5, 1))])
        for s in (238, 239, 240)])
_check("gelu_tanh_range", gelu_tanh_range, torch.compile(gelu_tanh_range),
       [(s, lambda: [torch.randn(64, 32) * 3]) for s in (1, 2)])
