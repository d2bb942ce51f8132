# A function held in a closure cell: torch.compile(make(torch.expm1)) reused the graph compiled
# for make(torch.exp), the same code with another function in its cell.
def _make(op):
    def apply(a):
        return op(a) * 2
    return apply


for _op in (torch.exp, torch.expm1, torch.sin, torch.exp):
    _f = _make(_op)
    _check("closure_" + _op.__name__, _f, torch.compile(_f), [(k, lambda: [torch.randn(4)]) for k in range(2)])
