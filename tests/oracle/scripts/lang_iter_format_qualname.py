# Small Python behaviours real model code leans on: %-format precision for integers, iter() of an
# object whose __iter__ returns an iterator of its own, __module__ set in a class body, CPython
# 3.11's qualified names in argument errors, and a few tensor flags and keyword forms.
import torch

print('%.5d|%5.3d|%-6.2d|%+.3d|%.0d|%3d' % (7, 7, 7, -7, 0, 42))
print('epoch %.3d, step %05d' % (4, 12))


class Counter3:
    def __init__(self):
        self.i = 0

    def __iter__(self):
        return self

    def __next__(self):
        self.i += 1
        if self.i > 3:
            raise StopIteration
        return self.i

    def __len__(self):
        return 3


class Loader:
    def __iter__(self):
        return Counter3()


it = iter(Loader())
print(type(it).__name__, len(it), next(it), list(it))


class Bad:
    def __iter__(self):
        return 5


try:
    iter(Bad())
except TypeError as e:
    print(e)


class Act:
    __module__ = 'torch.nn.modules.activation'


print(Act, Act.__module__)


class Sched:
    def step(self, metrics, epoch=None):
        return metrics

    class Inner:
        def go(self, x):
            return x


for call in [lambda: Sched().step(), lambda: Sched.Inner().go(), lambda: Sched().step(1, 2, 3)]:
    try:
        call()
    except TypeError as e:
        print(e)

t = torch.zeros(2)
print(t.is_sparse, t.is_quantized, t.is_meta)
torch.manual_seed(0)
print(torch.randint(high=5, size=(4,)), torch.randint(low=2, high=4, size=(3,)), torch.randint(3, size=(2,)))
class A:
    class B:
        def f(self): pass
def outer():
    class C:
        pass
    def g():
        pass
    return C, g
print(A.B, A.B.__qualname__, A.B.f.__qualname__, outer()[0], outer()[1].__qualname__)
