# Found by the GPU machine's differential run (p35_11233): log(gelu(2 / x, approximate='tanh')) was
# nan where eager's is -inf. Eager computes 0.5 x (1 + tanh(u)): once tanh(u) rounds to -1 (x below
# about -5.6) gelu is exactly -0.0, and above that 1 + tanh(u) moves in steps of 2^-24; the kernel's
# x sigmoid(2u) gave tiny negatives there (log nan) and values between the steps (log 0.3 off).
import torch.nn.functional as F


def gelu_tanh_log_of_div(x0, x1):
    return torch.log(F.gelu(2 / x1, approximate='tanh'))


def gelu_tanh_log(x0):
    v = F.gelu(x0, approximate='tanh')
    return torch.log(v), torch.log(-v), 1 / v


_check("gelu_tanh_log_of_div", gelu_tanh_log_of_div, torch.compile(gelu_tanh_log_of_div),
       [(245, lambda: [torch.randn((2, 3, )).transpose(-1, -2), torch.randn((3, 1, ))])])
# x from -12 to 0, every other one: eager's strided loop is scalar, with glibc's tanhf (its vectorized
# loop's Sleef tanhf is -1 already from u = -8.66, x = -5.04; the kernel follows the scalar loop)
_check("gelu_tanh_log", gelu_tanh_log, torch.compile(gelu_tanh_log),
       [(1, lambda: [torch.linspace(-12.0, 0.0, 9602)[::2]]),
        (2, lambda: [torch.tensor([float('-inf'), float('inf'), float('nan'), -0.0, 0.0, 3e38, -3e38, -5.0, -5.5, -6.0])]),
        (3, lambda: [(torch.linspace(-7.0, -3.0, 1994) + torch.rand(1994) * 1e-3)[::2]])])
