# Found by the GPU machine's differential run (p35_59438, with LibTorch 2.11): exp(x[x > 0] % nan)
# gave numbers where eager gives NaN. The kernel's exp scales by 2^k with integer adds to the bits;
# for a NaN, k is NaN and its payload bits moved the exponent: exp of NaNs other than the default
# one (there, those that remainder made) came out as 5.9e-39 or 2.6e-18.
def exp_of_nans(x0):
    return torch.exp(x0), torch.exp(-x0)


def exp_of_remainder_by_nan(x0, x1):
    v0 = x1[x1 > 0]
    return torch.exp(v0 % float('nan'))


# NaNs of either sign, quiet and signaling, with payloads in their low and high bits
_NAN_BITS = [0x7fc00000, -0x400000, 0x7fc00001, 0x7f800001, -0x7fffff, 0x7fffffff, -1, 0x7fa00000, 0x7fc12345, -0x3fedcb]
_check("exp_of_nans", exp_of_nans, torch.compile(exp_of_nans),
       [(1, lambda: [torch.tensor(_NAN_BITS * 4, dtype=torch.int32).view(torch.float32)]),
        (2, lambda: [torch.tensor(_NAN_BITS * 3, dtype=torch.int32).view(torch.float32).view(5, 6).t()])])
_check("exp_of_remainder_by_nan", exp_of_remainder_by_nan, torch.compile(exp_of_remainder_by_nan),
       [(245, lambda: [torch.randn((1, 3, 4, )).expand(5, 3, 4), _special(torch.randn((5, 3, 4, )))])])
