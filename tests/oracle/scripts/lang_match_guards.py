# covers: match guards (evaluated only after the pattern matched, names staying bound when a guard
# fails), OR and AS patterns, nested patterns, evaluation order (== on the subject, mapping get,
# attributes), match in loops, generators, class bodies and recursive functions, global and
# nonlocal captures, and runtime errors caught with try/except
from collections import defaultdict
from dataclasses import dataclass

import torch

log = []


def noisy(name, result=True):
    log.append(name)
    return result


def guarded(v):
    match v:
        case [x, y] if noisy(f"guard1 {x} {y}", x > y):
            return "descending"
        case [x, y] if noisy("guard2", x == y):
            return "flat"
        case [x, *_] if noisy("guard3"):
            return f"starts with {x}"
        case _ if noisy("guard4", False):
            return "never"
        case other:
            return f"other {other!r}"


for v in [[2, 1], [1, 1], [1, 2], [5], "x"]:
    log.clear()
    print(guarded(v), log)


def leftovers(v):
    match v:
        case (a, b) if a > 100:
            return "big"
        case _:
            return a, b  # bound by the first case although its guard failed


print(leftovers((1, 2)))


def alternatives(v):
    match v:
        case [x, 0] | [0, x] | {"x": x}:
            return f"x={x}"
        case (1 | 2 | 3) as small:
            return f"small {small}"
        case [(1 | 2) as a, (3 | 4) as b] as whole:
            return f"a={a} b={b} whole={whole}"
        case str() | set():
            return "text"
        case [[x, y], [y2, x2]] if x == x2 and y == y2:
            return f"mirrored {x} {y}"
        case {"a": {"b": [_, {"c": deep}]}}:
            return f"deep {deep}"
        case _:
            return "nothing"


for v in [[5, 0], [0, 6], {"x": 7}, 2, [2, 4], [2, 5], "s", [[1, 2], [2, 1]], [[1, 2], [3, 1]],
          {"a": {"b": [0, {"c": "found"}]}}, {"a": {"b": [0]}}]:
    print(repr(v), "->", alternatives(v))


class Loud:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        log.append(f"eq {self.v} {other!r}")
        return self.v == other


log.clear()
match Loud(3):
    case 1 | 2:
        print("one or two")
    case 3:
        print("three")
print(log)

counts = defaultdict(int, seen=1)
match counts:
    case {"missing": m}:
        print("missing", m)
    case {"seen": s}:
        print("seen", s, sorted(counts.items()))


def events(items):
    for item in items:
        match item:
            case "stop":
                print("stopping")
                break
            case "skip":
                continue
            case {"emit": value}:
                yield value
            case [*values]:
                yield from values
        print("after", item)


print(list(events([{"emit": 1}, [2, 3], "skip", {"emit": 4}, "stop", {"emit": 5}])))


class Settings:
    mode = "train"
    match mode:
        case "train":
            dropout = 0.1
        case _:
            dropout = 0.0


print(Settings.dropout)

current = None


def remember(v):
    global current
    match v:
        case [current, *_]:
            pass


remember([9, 8])
print(current)


def outer():
    found = None

    def inner(v):
        nonlocal found
        match v:
            case {"id": found}:
                return True
        return False

    print(inner({"id": 12}), found)


outer()


def first_positive(values):
    for v in values:
        match v:
            case int(n) if (doubled := n * 2) > 0:
                return n, doubled
    return None


print(first_positive([-1, 0, 3, 4]))


@dataclass
class Num:
    value: float


@dataclass
class BinOp:
    op: str
    left: object
    right: object


def evaluate(e):
    match e:
        case Num(v):
            return v
        case BinOp("+", l, r):
            return evaluate(l) + evaluate(r)
        case BinOp("*", l, Num(0)) | BinOp("*", Num(0), l):
            return 0
        case BinOp("*", l, r):
            return evaluate(l) * evaluate(r)
        case BinOp(op, _, _):
            raise ValueError(f"unknown operator {op!r}")


expr = BinOp("+", Num(2), BinOp("*", Num(3), Num(4)))
print(evaluate(expr), evaluate(BinOp("*", BinOp("+", Num(1), Num(1)), Num(0))))
try:
    evaluate(BinOp("-", Num(1), Num(2)))
except ValueError as e:
    print("ValueError:", e)


class Key:
    a = "k"
    b = "k"


try:
    match {"k": 1, "j": 2}:
        case {Key.a: 1, Key.b: 2}:
            print("no")
except ValueError as e:
    print("ValueError:", e)
match {"k": 1}:
    case {Key.a: _, Key.b: _}:
        print("no")
    case _:
        print("too short to compare keys")
match {"x": 1, "y": 2}:
    case {Key.a: _, Key.b: _}:
        print("no")
    case _:
        print("the first key is missing: the match ends before the second is compared")

try:
    match torch.ones(2):
        case 1:
            print("no")
except RuntimeError as e:
    print("RuntimeError:", e)
match torch.tensor(1.0):
    case 1:
        print("a one-element tensor equals 1")


class Unhashable:
    key = [1]


try:
    match {"a": 1}:
        case {Unhashable.key: v}:
            print(v)
except TypeError as e:
    print("TypeError:", e)

match 0.0:
    case -0.0:
        print("zero matches negative zero")
match float("nan"):
    case x if x != x:
        print("nan captured")
