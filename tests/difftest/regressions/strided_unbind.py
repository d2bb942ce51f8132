# GPU machine's 100,000-program run (seed 31, p31_80923): x0[::2] of a dynamic dim of 2 has one
# row, recorded as a static 1 because the shadow run that checks size dependence stopped at
# hardtanh (no meta kernel); with 3 rows, unbind()[-1] returned row 0. Such a dim now counts as
# derived from the dynamic size.
def strided_unbind(x0, x1):
    v0 = F.hardtanh(x1)
    v1 = x0[::2]
    v2 = v1.unbind(0)[-1]
    return (v0, v2)


_check('strided_unbind', strided_unbind, torch.compile(strided_unbind), [
    (217, lambda: [(torch.rand((1, 3, 4, )) > 0.5), torch.randn((1, 4, ))]),
    (218, lambda: [(torch.rand((2, 3, 4, )) > 0.5), torch.randn((2, 4, ))]),
    (219, lambda: [(torch.rand((3, 3, 4, )) > 0.5), torch.randn((3, 4, ))]),
])
