# covers: closures, nonlocal, nested functions, lambda, functions as values
import torch

torch.manual_seed(0)


def make_counter(start=0):
    count = start

    def inc(step=1):
        nonlocal count
        count += step
        return count

    return inc


c1 = make_counter()
c2 = make_counter(100)
print(c1(), c1(), c1(5))
print(c2(), c1())


def make_multiplier(k):
    return lambda x: x * k


double = make_multiplier(2)
triple = make_multiplier(3)
print(double(4), triple(4), double(triple(1)))

adders = [lambda x, i=i: x + i for i in range(4)]
print([f(10) for f in adders])


def accumulate():
    history = []

    def add(v):
        history.append(v)
        return len(history)

    def get():
        return list(history)

    return add, get


add, get = accumulate()
add(1)
add("two")
add(3.0)
print(get())

square = lambda x: x ** 2
pair = lambda a, b=1: (a, b)
print(square(7), pair(1), pair(1, 2))
ops = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b}
for name in ["add", "sub", "mul"]:
    print(name, ops[name](7, 3))


apply_twice = lambda f, x: f(f(x))
print(apply_twice(lambda v: v * 10, 3), apply_twice(double, 1.5))


def outer():
    x = "outer"

    def middle():
        def innermost():
            nonlocal x
            x = "changed"
        innermost()
    middle()
    return x


print(outer())
