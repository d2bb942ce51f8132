# Tensor's operator and protocol methods called by name (x.__add__(y), torch.Tensor.__getitem__),
# as subclass-free code and older libraries write them; also under torch.compile.
import torch

x = torch.arange(6.0).view(2, 3)
print(x.__add__(1), x.__radd__(2), x.__rsub__(10), x.__mul__(x), x.__matmul__(x.t()))
print(x.__eq__(x), x.__lt__(2.0), x.__ge__(x), x.__neg__(), x.__abs__(), x.__pow__(2), x.__rpow__(2))
print(x.__truediv__(2), x.__rtruediv__(1), x.__floordiv__(2), x.__mod__(4))
print(torch.tensor(3).__index__(), [1, 2, 3, 4][torch.tensor(2)])
y = x.clone()
y.__iadd__(1)
y.__imul__(2)
print(y)
print(x.__len__(), list(x.__iter__())[0], x.__contains__(2.0), x.__contains__(9.0))
print(x.__repr__())
print(torch.tensor(1.5).__float__(), torch.tensor(2.7).__int__(), torch.tensor(0.0).__bool__())
print(torch.Tensor.__mul__(x, 2), torch.Tensor.__getitem__(x, (0, 1)))
z = torch.zeros(2, 3)
z.__setitem__(0, torch.ones(3))
torch.Tensor.__setitem__(z, (1, 2), 7.0)
print(z)
print(torch.tensor(True).__and__(torch.tensor(False)), torch.tensor(6).__rfloordiv__(20), torch.tensor(5).__xor__(3))
print(torch.tensor([1, 2]).__lshift__(1), torch.tensor([4]).__rshift__(1), torch.tensor(5).__invert__())
for bad in (lambda: torch.tensor([1.5]).__index__(), lambda: torch.Tensor.__add__(1, 2),
            lambda: torch.tensor([1.0, 2.0]).__float__(), lambda: x.__setitem__(0, torch.ones(4))):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)


def f(a):
    return a.__mul__(2).__add__(1).__neg__()


compiled = torch.compile(f) if hasattr(torch, "compile") else f
print(compiled(x), compiled(torch.ones(3)))
