# covers: chained comparisons, and/or short-circuit returning operands, not, is/is not, in/not in, ==
import torch

torch.manual_seed(0)
x = 5
print(1 < x < 10, 1 < x > 10, 0 <= x <= 5 < 6, 3 == 3 == 3.0, 1 < 2 > 1.5)
print(x > 3 and x < 4, x > 3 or x < 4)
print(0 or "default", "" or None, [] or [1], 3 or 4, None or 0)
print(0 and 1, 2 and 3, "a" and "", [1] and "yes", None and crash_if_evaluated)
print(not 0, not "x", not [], not None)
calls = []


def f(v):
    calls.append(v)
    return v


r = f(0) and f(1)
r2 = f(2) or f(3)
r3 = f(4) and f(5) and f(0) and f(6)
print(r, r2, r3, calls)
a = [1, 2]
b = [1, 2]
c = a
print(a == b, a is b, a is c, a is not b, None is None)
print(2 in a, 3 in a, 3 not in a, "ell" in "hello", "k" in {"k": 1}, 1 in (1, 2))
print((1, 2) < (1, 3), [1, 2, 3] < [1, 3], "abc" < "abd", "B" < "a")
print(1 == 1.0, True == 1, False == 0, "1" == 1, None == 0)
print(max(1, 2) if 1 < 2 < 3 else "no")
lim = 3
vals = [v for v in range(10) if 2 <= v < lim * 2 and v != 4]
print(vals)
