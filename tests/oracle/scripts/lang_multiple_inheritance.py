# multiple inheritance: C3 method resolution order, cooperative super() through a diamond,
# mixins with nn.Module (compiled), explicit base __init__ calls, an inconsistent MRO, super() in
# a classmethod.
import torch
import torch.nn as nn


class A:
    def hello(self):
        return ["A"]


class B(A):
    def hello(self):
        return ["B"] + super().hello()


class C(A):
    def hello(self):
        return ["C"] + super().hello()


class D(B, C):
    def hello(self):
        return ["D"] + super().hello()


print(D().hello(), isinstance(D(), C), issubclass(D, A), [k.__name__ for k in (B, C)])


class Base:
    def __init__(self, **kw):
        self.log = ["Base"]


class LoggingMixin(Base):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.log.append("Logging")

    def describe(self):
        return "%s with %d params" % (type(self).__name__, sum(p.numel() for p in self.parameters()))


class SizedMixin(Base):
    def __init__(self, size=3, **kw):
        super().__init__(**kw)
        self.size = size
        self.log.append("Sized")


class Both(LoggingMixin, SizedMixin):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.log.append("Both")


b = Both(size=5)
print(b.log, b.size)


class Named:
    def name(self):
        return "net:" + type(self).__name__


class Net(nn.Module, Named):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)

    def forward(self, x):
        return self.fc(x)


class Net2(LoggingMixin, nn.Module):
    def __init__(self):
        nn.Module.__init__(self)
        LoggingMixin.__init__(self)
        self.fc = nn.Linear(3, 1)

    def forward(self, x):
        return self.fc(x)


torch.manual_seed(0)
n = Net()
print(n.name(), n, isinstance(n, nn.Module), isinstance(n, Named))
with torch.no_grad():
    print(torch.compile(n)(torch.ones(1, 2)).shape)
n2 = Net2()
print(n2.describe(), n2.log)
try:
    class Bad(A, B):
        pass
except TypeError as e:
    print(e)


class K:
    @classmethod
    def make(cls):
        return cls.__name__


class L(K):
    @classmethod
    def make(cls):
        return "L+" + super().make()


print(L.make())
