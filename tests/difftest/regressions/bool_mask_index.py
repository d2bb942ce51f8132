# x[x > 0] was traced into the graph with the number of values of the first call: a later call
# with another count indexed past the end (unbind()[-1]) or reshaped with the old size. How many
# values a mask selects depends on the data, so it breaks the graph, as nonzero does.
def mask_unbind(x0):
    v0 = x0[x0 > 0]
    return v0.contiguous().unbind(0)[-1]


def mask_reshape(x0):
    v0 = x0[x0 > 0]
    v4 = v0.clone()
    return v4.reshape(v4.shape[0], -1) * 2


def mask_in_tuple(x0):
    return x0[x0[:, 0] > 0, 1:] + 1


for _f in (mask_unbind, mask_reshape, mask_in_tuple):
    _check(_f.__name__, _f, torch.compile(_f), [(s, lambda: [torch.randn(6, 5)]) for s in (49, 50, 51)])
