# covers: try/except/else/finally, except with tuples and "as", raise, builtin exception types and their messages
import torch

torch.manual_seed(0)


def safe_div(a, b):
    try:
        r = a / b
    except ZeroDivisionError as e:
        print("caught:", type(e).__name__, e)
        return None
    else:
        print("no error")
        return r
    finally:
        print("finally for", a, b)


print(safe_div(6, 3))
print(safe_div(1, 0))

cases = [
    lambda: [1, 2][5],
    lambda: {"a": 1}["b"],
    lambda: int("x1"),
    lambda: 1 + "a",
    lambda: None.foo,
    lambda: undefined_name,
    lambda: 10 // 0,
    lambda: 5 % 0,
    lambda: 1.0 / 0.0,
]
for fn in cases:
    try:
        fn()
    except (IndexError, KeyError) as e:
        print("lookup error:", type(e).__name__, e)
    except Exception as e:
        print("other:", type(e).__name__, e)


try:
    raise RuntimeError("shape mismatch")
except RuntimeError as e:
    print(e, e.args)
try:
    try:
        raise KeyError("k")
    finally:
        print("inner finally")
except KeyError as e:
    print("KeyError repr:", e)
try:
    raise TypeError
except TypeError as e:
    print("empty message:", repr(str(e)))
count = 0
for i in range(3):
    try:
        if i == 1:
            continue
        count += 1
    finally:
        count += 10
print("count", count)
