# covers: script classes' __hash__ and __eq__ deciding dict keys and set members (equal instances
# with equal hashes are one key, mixed with the ints they equal), __hash__ = None and a class with
# __eq__ but no __hash__ being unhashable (CPython's TypeError), inheritance of both, and how
# often CPython calls them (also while an __eq__ changes the dict it is compared in)
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __eq__(self, other):
        return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)

    def __hash__(self):
        return hash((self.x, self.y))

    def __repr__(self):
        return "Point(%d, %d)" % (self.x, self.y)


d = {Point(1, 2): "a"}
d[Point(1, 2)] = "b"
d[Point(2, 1)] = "c"
print(d, len(d), Point(1, 2) in d, Point(3, 3) in d, d.get(Point(2, 1)))
print({Point(0, 0), Point(0, 0), Point(0, 1)} == {Point(0, 1), Point(0, 0)}, len({Point(5, 5), Point(5, 5)}))
print(hash(Point(1, 2)) == hash((1, 2)), Point.__hash__ is not None)
del d[Point(1, 2)]
print(d, d.pop(Point(2, 1)), d)


class Key:
    calls = []

    def __init__(self, n):
        self.n = n

    def __hash__(self):
        Key.calls.append("hash %d" % self.n)
        return self.n

    def __eq__(self, other):
        Key.calls.append("eq %d" % self.n)
        return self.n == (other.n if isinstance(other, Key) else other)


k = {Key(1): "one", 2: "two"}
print(k[1], k[Key(2)], Key(1) in {1, 2}, 3 in k)
print(Key.calls)


class NoHash:
    def __eq__(self, other):
        return True


class Explicit:
    __hash__ = None


class Child(Point):
    pass


class EqOnlyChild(Point):
    def __eq__(self, other):
        return False


print(NoHash.__hash__, Explicit.__hash__, Child(1, 2) in {Point(1, 2)}, "__hash__" in NoHash.__dict__)
for fn in [lambda: hash(NoHash()), lambda: {NoHash(): 1}, lambda: {Explicit()}, lambda: hash(EqOnlyChild(1, 1)),
           lambda: {}.setdefault(NoHash()), lambda: NoHash() in {1: 2}, lambda: [NoHash()].count(1)]:
    try:
        print(fn())
    except TypeError as e:
        print("TypeError:", e)


class BadHash:
    def __hash__(self):
        return "nope"


class BigHash:
    def __hash__(self):
        return 2 ** 64 + 5


try:
    hash(BadHash())
except TypeError as e:
    print("TypeError:", e)
print(hash(BigHash()), hash(BigHash()) == hash(2 ** 64 + 5))



# a key whose __eq__ changes the dict while it is compared; clearing a dict or set while iterating it
class Mutator:
    def __init__(self, d):
        self.d = d
        self.n = 0

    def __hash__(self):
        return 7

    def __eq__(self, other):
        self.n += 1
        if self.n == 1:
            self.d[100 + self.n] = "added while comparing"
        return False


d = {}
m1 = Mutator(d)
d[m1] = "m1"
m2 = Mutator(d)
print(m2 in d, sorted(map(str, d.values())), m1.n, m2.n)
try:
    for k in d:
        d.clear()
except RuntimeError as e:
    print("RuntimeError:", e)
s = {1, 2}
try:
    for k in s:
        s.clear()
except RuntimeError as e:
    print("RuntimeError:", e)
