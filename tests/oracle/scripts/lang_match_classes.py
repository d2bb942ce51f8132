# covers: class patterns: __match_args__ for positional sub-patterns, keyword sub-patterns, plain
# classes, inheritance, properties and missing attributes, builtin types that match their subject
# (int(x), str(s), list(l), ...), dataclasses and namedtuples, torch.Tensor, and the TypeErrors of
# bad class patterns with CPython's messages
from collections import namedtuple
from dataclasses import dataclass

import torch


class Point:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


class Point3(Point):
    __match_args__ = ("x", "y", "z")

    def __init__(self, x, y, z):
        super().__init__(x, y)
        self.z = z


class Plain:
    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)


class Circle:
    __match_args__ = ("radius",)

    def __init__(self, r):
        self._r = r

    @property
    def radius(self):
        return self._r

    @property
    def area(self):
        if self._r < 0:
            raise AttributeError("negative radius")
        return 3 * self._r * self._r


def where(p):
    match p:
        case Point3(0, 0, 0):
            return "3d origin"
        case Point3(x, y, z=0):
            return f"3d flat at {x},{y}"
        case Point(0, 0):
            return "origin"
        case Point(x, 0) | Point(0, x):
            return f"on an axis at {x}"
        case Point(x=px, y=py) if px == py:
            return f"diagonal {px}"
        case Point():
            return "a point"
        case Circle(r) if r > 5:
            return f"big circle {r}"
        case Circle(area=a):
            return f"circle of area {a}"
        case Circle():
            return "circle without area"
        case Plain(name=str(n), size=int(s)):
            return f"plain {n} {s}"
        case Plain(name=n):
            return f"plain named {n!r}"
        case Plain():
            return "plain"
        case _:
            return "unknown"


shapes = [Point3(0, 0, 0), Point3(1, 2, 0), Point3(1, 2, 3), Point(0, 0), Point(4, 0), Point(0, 7), Point(3, 3),
          Point(1, 2), Circle(6), Circle(2), Circle(-1), Plain(name="a", size=3), Plain(name="b", size="3"),
          Plain(size=1), Plain(), 42]
for s in shapes:
    print(where(s))


def builtin(v):
    match v:
        case bool(b):
            return f"bool {b}"
        case int(n) if n < 0:
            return f"negative int {n}"
        case int(n):
            return f"int {n}"
        case float(f):
            return f"float {f}"
        case str(s) if not s:
            return "empty str"
        case str(s):
            return f"str {s}"
        case list([x, *_]):
            return f"list starting {x}"
        case list(l):
            return f"empty list {l}"
        case tuple((a, b)):
            return f"pair {a} {b}"
        case tuple(t):
            return f"tuple of {len(t)}"
        case dict({"k": k}):
            return f"dict with k={k}"
        case dict(d):
            return f"dict of {len(d)}"
        case set(s):
            return f"set of {len(s)}"
        case torch.Tensor(shape=(n,)):
            return f"vector tensor of {n}"
        case torch.Tensor():
            return "tensor"
        case None:
            return "None"


for v in [True, -3, 4, 1.5, "", "hi", [7, 8], [], (1, 2), (1, 2, 3), {"k": 0}, {"j": 1}, {1, 2},
          torch.ones(3), torch.ones(2, 2), None]:
    print(builtin(v))


@dataclass
class Linear:
    fan_in: int
    fan_out: int
    bias: bool = True


@dataclass
class Dropout:
    p: float


def describe(layer):
    match layer:
        case Linear(i, o, bias=False):
            return f"linear {i}->{o} without bias"
        case Linear(i, o):
            return f"linear {i}->{o}"
        case Dropout(p) if p > 0.5:
            return "heavy dropout"
        case Dropout(p=p):
            return f"dropout {p}"


print(Linear.__match_args__, Dropout.__match_args__)
for layer in [Linear(3, 4), Linear(3, 4, False), Dropout(0.9), Dropout(0.1)]:
    print(describe(layer))

Pair = namedtuple("Pair", "left right")
print(Pair.__match_args__)
for v in [Pair(1, 2), Pair("a", Pair(3, 4))]:
    match v:
        case Pair(left, Pair(a, b)):
            print("nested pair", left, a, b)
        case Pair(l, r):
            print("pair", l, r)
match Pair(5, 6):
    case (a, b):
        print("namedtuple as sequence", a, b)


class NoArgs:
    pass


class ListArgs:
    __match_args__ = ["a"]
    a = 1


class IntArgs:
    __match_args__ = ("a", 2)
    a = 1


class TwiceArgs:
    __match_args__ = ("a", "a")
    a = 1


def bad(v, pattern):
    try:
        match pattern:
            case 1:
                match v:
                    case NoArgs(x):
                        return x
            case 2:
                match v:
                    case ListArgs(x):
                        return x
            case 3:
                match v:
                    case IntArgs(x, y):
                        return x
            case 4:
                match v:
                    case TwiceArgs(x, a=y):
                        return x
            case 5:
                match v:
                    case int(x, y):
                        return x
            case 6:
                match v:
                    case v.bit_length():
                        return "no"
            case 7:
                match v:
                    case TwiceArgs(x, y):
                        return x
    except TypeError as e:
        return "TypeError: " + str(e)
    return "no match"


for i, v in enumerate([NoArgs(), ListArgs(), IntArgs(), TwiceArgs(), 5, 5, TwiceArgs()]):
    print(bad(v, i + 1))
print(bad(5, 1), bad("s", 2))
