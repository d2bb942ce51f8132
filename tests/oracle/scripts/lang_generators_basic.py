# Generator functions: lazy bodies, yield as a statement and an expression, return values in
# StopIteration, exhaustion, generators in for loops, builtins and unpacking.
def countdown(n):
    print("countdown starts at", n)
    while n > 0:
        yield n
        n -= 1
    return "liftoff"


g = countdown(3)
print(type(g).__name__)
print("nothing has run yet")
print(next(g), next(g), next(g))
try:
    next(g)
except StopIteration as e:
    print("StopIteration", e.value, e.args)
try:
    next(g)
except StopIteration as e:
    print("again", e.value, e.args)
print(list(countdown(4)), sum(countdown(5)), max(countdown(2)))
a, b, c = countdown(3)
print(a, b, c, [*countdown(2)], tuple(countdown(1)))
print(next(countdown(0), "default"))


def pairs(items):
    for i, x in enumerate(items):
        if x is None:
            continue
        yield i, x


for i, x in pairs(["a", None, "c"]):
    print(i, x)
print(dict(pairs(["p", "q"])), sorted(set(x for _, x in pairs("abca"))))


def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


f = fib()
print([next(f) for _ in range(10)])
print(list(zip(fib(), "xyz")), any(v > 50 for v in fib()))


def early(n):
    if n < 0:
        return
    yield n


print(list(early(-1)), list(early(2)))


def nested():
    def inner(k):
        for j in range(k):
            yield j * k
    for k in range(1, 4):
        yield list(inner(k))


print(list(nested()))


class Tree:
    def __init__(self, value, children=()):
        self.value = value
        self.children = list(children)

    def walk(self):
        yield self.value
        for c in self.children:
            yield from c.walk()

    def __iter__(self):
        return self.walk()


t = Tree(1, [Tree(2, [Tree(4)]), Tree(3)])
print(list(t.walk()), [v * 10 for v in t], 3 in t.walk())
it = iter(t)
print(next(it), next(it), iter(it) is it)
