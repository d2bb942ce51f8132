# A device finding (GPU machine, LibTorch 2.11): eager log1p is finite above 1e38 there, while the
# kernel's math (LibTorch 1.13's, inf above 1e38) gave inf. The runtime now probes eager log1p
# once and runs it eagerly where the two differ; on LibTorch 1.13 it stays a kernel.
def log1p_abs(x0):
    return torch.log1p(torch.abs(x0))


def log1p_huge(x0):
    return torch.log1p(x0 * 1e38)


for _f in (log1p_abs, log1p_huge):
    _check(_f.__name__, _f, torch.compile(_f),
           [(s, lambda: [_special(torch.randn(3, 4, 5)).transpose(-1, -2)]) for s in (217, 218)])
