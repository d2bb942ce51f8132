# Two clamps in a row that treat NaN differently: relu keeps a NaN, `where(v > 0, v, 0)` turns it
# into 0. Clang 15 folded the second select into the first (its min/max matching ignores how each
# treats NaN), so the compiled result was NaN where eager gives 0. Every pair of a NaN-keeping and
# a NaN-dropping clamp at the same constant, in both orders.
_NAN_ROWS = [float("nan"), -1.0, -0.0, 0.0, 1.0, float("inf"), float("-inf"), 0.5, 2.0, -2.0]


def _nan_input():
    return [torch.tensor(_NAN_ROWS * 4).reshape(4, 10)]


def _nan_input_transposed():
    return [torch.tensor(_NAN_ROWS * 4).reshape(10, 4).t()]


def relu_then_where(x0):
    v0 = F.relu(x0)
    return torch.where(v0 > 0, v0, 0.0)


def clamp_then_where(x0):
    v0 = torch.clamp(x0, min=1.0)
    return torch.where(v0 >= 1.0, v0, 1.0)


def clamp_max_then_where(x0):
    v0 = torch.clamp(x0, max=-1.0)
    return torch.where(v0 < -1.0, v0, -1.0)


def where_then_clamp(x0):
    v0 = torch.where(x0 > 1.0, x0, 1.0)
    return torch.clamp(v0, min=1.0)


def where_then_where(x0):
    v0 = torch.where(x0 < 0, 0.0, x0)
    return torch.where(v0 > 0, v0, 0.0)


def max_then_where(x0):
    v0 = torch.maximum(x0, torch.tensor(1.0))
    return torch.where(v0 > 1.0, v0, 1.0)


for _f in (relu_then_where, clamp_then_where, clamp_max_then_where, where_then_clamp, where_then_where, max_then_where):
    _check(_f.__name__, _f, torch.compile(_f), [(1, _nan_input), (2, _nan_input_transposed), (3, _nan_input)])
