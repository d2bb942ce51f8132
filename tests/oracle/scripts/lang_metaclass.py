class Meta(type):
    def __new__(mcs, name, bases, ns, **kw):
        ns['tag'] = name.lower()
        cls = super().__new__(mcs, name, bases, ns)
        cls.made_by = mcs.__name__
        return cls
    def __init__(cls, name, bases, ns, **kw):
        super().__init__(name, bases, ns)
        cls.inited = True
    def __iter__(cls):
        return iter([1, 2, 3])
    def __len__(cls):
        return 3
    def __getitem__(cls, k):
        return k * 2
    def __contains__(cls, x):
        return x == 7
    def __repr__(cls):
        return "<M " + cls.__name__ + ">"
    def __call__(cls, *a, **k):
        print("calling", cls.__name__, a)
        return super().__call__(*a, **k)
    def hello(cls):
        return "hello " + cls.__name__
    @property
    def prop(cls):
        return cls.__name__ + "!"

class A(metaclass=Meta):
    x = 1
    def __init__(self, v):
        self.v = v
    def get(self):
        return self.v

class B(A):
    y = 2
    def get(self):
        return super().get() + 1

print(A.tag, B.tag, A.made_by, A.inited, B.inited)
print(list(A), len(B), A[4], 7 in A, 8 in A)
print(A, repr(B), str(A))
a = A(5); b = B(6)
print(a.get(), b.get(), type(a).__name__, type(A) is Meta, isinstance(A, Meta), isinstance(a, A))
print(A.hello(), B.prop)
C = Meta('C', (object,), {'z': 3})
print(C, C.z, C.tag)
D = type('D', (), {'w': 4, 'f': lambda self: self.w + 1})
print(D().f(), D.__name__)
class InstCheck(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, int)
class Num(metaclass=InstCheck):
    pass
print(isinstance(3, Num), isinstance("a", Num))
class M2(type): pass
class P(metaclass=M2): pass
try:
    class Q(A, P): pass
except TypeError as e:
    print("TypeError", e)
class Ordered:
    b = 1
    a = 2
    def c(self): pass
print([k for k in Ordered.__dict__ if not k.startswith('__')] if hasattr(Ordered, '__dict__') else None)
