# covers: decorators without arguments, decorators with arguments, stacked decorators, decorating methods
import torch

torch.manual_seed(0)
calls = []

def trace(fn):
    def wrapper(*args, **kwargs):
        calls.append(fn.__name__)
        return fn(*args, **kwargs)
    return wrapper

def repeat(n):
    def deco(fn):
        def wrapper(*args):
            return [fn(*args) for _ in range(n)]
        return wrapper
    return deco

def prefix(tag="LOG"):
    def deco(fn):
        return lambda msg: f"[{tag}] " + fn(msg)
    return deco

registry = {}

def register(name):
    def deco(fn):
        registry[name] = fn
        return fn
    return deco

@trace
def add(a, b):
    return a + b

@repeat(3)
def hello(name):
    return "hi " + name

@prefix()
def plain(msg):
    return msg.upper()

@prefix(tag="WARN")
@trace
def warn(msg):
    return msg

@register("square")
def sq(x):
    return x * x

cube = register("cube")(lambda x: x ** 3)

print(add(2, 3), add(a=1, b=1))
print(hello("bob"))
print(plain("started"))
print(warn("careful"))
print(calls)
print(sorted(registry), registry["square"](4), registry["cube"](2))

class Model:
    def __init__(self, w):
        self.w = w

    @trace
    def predict(self, x):
        return self.w * x

m = Model(3)
print(m.predict(2), m.predict(5), calls[-2:])
