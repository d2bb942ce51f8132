# covers: positional-only parameters (def f(a, /, b)): binding, defaults, the TypeErrors for
# positional-only names passed as keywords (and their order against other complaints), **kwargs
# taking such a keyword, lambdas, methods, inspect.signature's '/'
import inspect

import torch


def attempt(label, fn):
    try:
        print(label, fn())
    except TypeError as e:
        print(label, "TypeError:", e)


def f(a, b, /, c, *, d=4):
    return a, b, c, d


def scaled(x, factor=2.0, /, bias=0.0):
    return x * factor + bias


def collect(a, /, **kw):
    return a, sorted(kw.items())


def only(a, /):
    return a


attempt("f positional", lambda: f(1, 2, 3))
attempt("f c keyword", lambda: f(1, 2, c=3, d=5))
attempt("f a keyword", lambda: f(a=1, b=2, c=3))
attempt("f b keyword", lambda: f(1, b=2, c=3))
attempt("f order", lambda: f(1, 2, c=3, b=5, a=4))
attempt("f too many", lambda: f(1, 2, 3, 4))
attempt("f unknown first", lambda: f(1, 2, 3, 4, x=1))
attempt("f posonly and count", lambda: f(1, 2, 3, 4, a=1))
attempt("f twice", lambda: f(1, 2, 3, c=3))
attempt("f missing", lambda: f(1))
attempt("scaled defaults", lambda: scaled(3))
attempt("scaled bias", lambda: scaled(3, bias=1.0))
attempt("scaled factor kw", lambda: scaled(3, factor=1.0))
attempt("collect kw", lambda: collect(1, a=2, b=3))
attempt("collect missing", lambda: collect(a=2))
attempt("only kw", lambda: only(a=1))
attempt("only none", lambda: only())
attempt("only two", lambda: only(1, 2))

lam = lambda x, /, y=2: (x, y)
attempt("lambda", lambda: lam(1, y=3))
attempt("lambda kw", lambda: lam(x=1))


class Layer:
    def forward(self, x, /, scale=1.0):
        return x * scale

    @staticmethod
    def make(n, /):
        return [n] * 2


layer = Layer()
t = torch.arange(3.0)
attempt("method", lambda: layer.forward(t, scale=2.0))
attempt("method kw", lambda: layer.forward(x=t))
attempt("static", lambda: Layer.make(2))
attempt("static kw", lambda: Layer.make(n=2))

print(inspect.signature(f))
print(inspect.signature(scaled))
print(inspect.signature(collect))
print(inspect.signature(only))
print(inspect.signature(Layer.forward))
print(inspect.signature(layer.forward))
print([p.name for p in inspect.signature(f).parameters.values() if p.kind == inspect.Parameter.POSITIONAL_ONLY])
