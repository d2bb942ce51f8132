# covers: tuple assignment, swapping, starred unpacking, nested unpacking, multiple return values
import torch

torch.manual_seed(0)
a, b = 1, 2
print(a, b)
a, b = b, a
print(a, b)
x, y, z = [10, 20, 30]
print(x, y, z)
first, *rest = [1, 2, 3, 4]
print(first, rest)
*init, last = "hello"
print(init, last)
head, *middle, tail = range(6)
print(head, middle, tail)
p, *q = (5,)
print(p, q)
(m, n), o = (1, 2), 3
print(m, n, o)
i = j = k = 0
print(i, j, k)


def stats(values):
    return min(values), max(values), sum(values) / len(values)


lo, hi, avg = stats([3, 1, 4, 1, 5, 9, 2, 6])
print(lo, hi, avg)
result = stats([2, 4])
print(result, type(result).__name__, result[2])
pairs = [(1, "a"), (2, "b")]
nums, letters = zip(*pairs)
print(nums, letters)
merged = [*nums, *[7, 8], 9]
print(merged)
combined = {**{"a": 1, "b": 2}, "b": 3, **{"c": 4}}
print(combined)
t = (*letters, "c")
print(t)
try:
    u, v = [1, 2, 3]
except ValueError as e:
    print("ValueError:", e)
try:
    u, v, w = [1, 2]
except ValueError as e:
    print("ValueError:", e)
