# inspect as model code asks of it: signature of functions, methods, classes and torch.optim
# classes (nanoGPT checks 'fused' in AdamW's), Parameter kinds, is* predicates, getdoc.
import inspect
import torch


def f(a, b=2, *args, c, d=4, **kw):
    """Adds.

    More text here.
    """
    return a


class Net(torch.nn.Module):
    def __init__(self, width, depth=2, *, act="relu"):
        super().__init__()

    def forward(self, x, mask=None):
        return x


sig = inspect.signature(f)
print(sig, list(sig.parameters), sig.parameters["b"].default, sig.parameters["c"].default is inspect.Parameter.empty)
print([p.kind == inspect.Parameter.KEYWORD_ONLY for p in sig.parameters.values()])
print(inspect.signature(Net), inspect.signature(Net(3).forward))
print("fused" in inspect.signature(torch.optim.AdamW).parameters, "lr" in inspect.signature(torch.optim.SGD).parameters)
print(inspect.isclass(Net), inspect.isfunction(f), inspect.ismethod(Net(3).forward), inspect.isfunction(Net))
print(inspect.getdoc(f))
print(inspect.signature(lambda x, y=1: x))
