# A kernel wrote its result row-major where eager lays it out as its inputs are (a clone or
# pointwise op of a transposed tensor is column-major). Seen three ways: the output's strides
# differed; an eager op fed by that result (log of a bool mask, atan2) laid out its own result
# otherwise; and reshape(-1) of the clone aliased it where eager's copies, so an in-place write
# through it landed where eager's is lost. A graph made dynamic on transposed inputs also ran a
# row-major input of the same rank (its strides were not guarded), with the transposed layout.
def clone_then_fill(x):
    v = x.clone()
    v.masked_fill_(v > 0, 0.5)
    return v


def clone_then_zero(x):
    v = x.clone()
    v.zero_()
    return v


def eager_op_of_mask(x):
    return torch.log(x > 0.2)


def eager_op_of_kernel(x):
    v = torch.relu(torch.clamp(x, min=0.0, max=1.0))
    return torch.atan2(v, v)


def chunk_of_compare(x):
    return (x > x).chunk(3, 0)[-1]


def reshape_write_of_clone(x):
    v = x.clone()
    v.reshape(-1)[:2].mul_(5)
    return v


def pointwise(x):
    return x * 2


for _f in (clone_then_fill, clone_then_zero, eager_op_of_mask, eager_op_of_kernel, chunk_of_compare, reshape_write_of_clone, pointwise):
    # transposed inputs of changing sizes (the second call makes the graph dynamic), then a
    # row-major one of a size the dynamic graph accepts, then transposed again
    _check(_f.__name__, _f, torch.compile(_f), [
        (1, lambda: [torch.randn(5, 2).t()]),
        (2, lambda: [torch.randn(5, 3).t()]),
        (3, lambda: [torch.randn(4, 5)]),
        (4, lambda: [torch.randn(5, 4).t()]),
        (5, lambda: [torch.randn(3, 4, 5).transpose(0, 2)]),
    ])
