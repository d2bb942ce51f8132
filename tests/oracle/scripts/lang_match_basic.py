# covers: match statements with literal, capture, wildcard, value (dotted name), sequence and
# mapping patterns: which subjects are sequences or mappings, star captures, **rest, subjects
# that are tuples of values, match and case used as plain names
import enum

import torch


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Limits:
    LOW = 0
    HIGH = 10


def literal(v):
    match v:
        case 0:
            return "zero"
        case -1:
            return "minus one"
        case 2.5:
            return "two and a half"
        case "go" | "run":
            return "verb"
        case True:
            return "true"
        case None:
            return "none"
        case Limits.HIGH:
            return "high"
        case Color.RED:
            return "red"
        case _:
            return "other " + repr(v)


for v in [0, 0.0, False, -1, 2.5, "go", "run", True, 1, None, 10, Color.RED, Color.GREEN, "stop"]:
    print(repr(v), "->", literal(v))


def shape(v):
    match v:
        case []:
            return "empty"
        case [x]:
            return f"one {x!r}"
        case [x, y]:
            return f"two {x!r} {y!r}"
        case [first, *middle, last]:
            return f"first {first!r} middle {middle!r} last {last!r}"
        case _:
            return "not a sequence"


for v in [[], (), [1], (2,), [1, 2], (1, 2), range(3), range(7), [1, 2, 3, 4], "ab", "", {1: 2}, {1, 2}, 5, None]:
    print(repr(v), "->", shape(v))


def head_tail(v):
    match v:
        case [*_, 0]:
            return "ends with 0"
        case (1, *rest):
            return f"starts with 1, rest {rest!r}"
        case [*everything]:
            return f"all {everything!r}"


for v in [[3, 0], (1, 2, 3), [1], (5, 6), [], range(1, 4)]:
    print(repr(v), "->", head_tail(v))


def config(v):
    match v:
        case {"kind": "linear", "size": int(n)}:
            return f"linear {n}"
        case {"kind": "conv", "channels": [cin, cout], **extra}:
            return f"conv {cin}->{cout} extra {extra!r}"
        case {"kind": kind}:
            return f"unknown kind {kind!r}"
        case {}:
            return "mapping without kind"
        case _:
            return "not a mapping"


configs = [
    {"kind": "linear", "size": 8},
    {"kind": "linear", "size": "8"},
    {"kind": "conv", "channels": (3, 16), "stride": 2, "pad": 1},
    {"kind": "conv", "channels": [3]},
    {"kind": "pool"},
    {"size": 3},
    {},
    [("kind", "linear")],
    "kind",
]
for c in configs:
    print(repr(c), "->", config(c))


def keys(v):
    match v:
        case {0: zero, Color.RED: red}:
            return f"zero {zero} red {red}"
        case {None: x, True: y}:
            return f"none {x} true {y}"


print(keys({0: "a", Color.RED: "b", 5: "c"}))
print(keys({None: 1, 1: 2}))
print(keys({None: 1, True: 2}))
print(keys({0: "a"}))


def pair(a, b):
    match a, b:
        case 0, 0:
            return "origin"
        case x, 0:
            return f"on x axis at {x}"
        case 0, y:
            return f"on y axis at {y}"
        case (x, y) if x == y:
            return "diagonal"
        case _:
            return "somewhere"


for a, b in [(0, 0), (3, 0), (0, -2), (4, 4), (1, 2)]:
    print(a, b, pair(a, b))


def tensors(t):
    match t.shape:
        case (n,):
            return f"vector of {n}"
        case (rows, cols):
            return f"matrix {rows}x{cols}"
        case (b, *rest):
            return f"batch {b} of {tuple(rest)}"


print(tensors(torch.zeros(3)))
print(tensors(torch.zeros(2, 5)))
print(tensors(torch.zeros(4, 2, 3)))
print(tensors(torch.zeros(())))
match torch.tensor([1.0, 2.0]).tolist():
    case [a, b]:
        print("tolist", a + b)

# match and case stay ordinary names
match = [1, 2]
case = {"case": match}
print(match, case["case"])
match, case = case, match
print(match, case)


def match_(x):
    return x * 2


print(match_(3))
