# covers: len, min, max (key=, default=), sum (start), abs, round (banker's rounding, ndigits), int, float, bool, str conversions
import torch

torch.manual_seed(0)
nums = [3, -1, 4, -1, 5, -9, 2, 6]
print(len(nums), min(nums), max(nums), sum(nums), sum(nums, 100), sum([0.5, 0.25]))
print(min(3, 1, 2), max("a", "c", "b"), max(nums, key=abs), min(["aa", "b", "ccc"], key=len))
print(max([], default=None), min([], default=-1), max([(1, "b"), (1, "a")]))
print(abs(-3), abs(2.5), abs(-0.0), abs(True))
print(round(2.5), round(3.5), round(-2.5), round(0.5), round(1.5), round(7))
print(round(3.14159, 2), round(2.675, 2), round(-1.005, 2), round(1234.5678, -2), round(0.125, 2))
print(type(round(2.5)).__name__, type(round(2.5, 1)).__name__, round(2.0, 0))
print(int(7.9), int(-7.9), int("  12 "), int(True), int("ff", 97), int("-0"))
print(float(7), float("3.5e2"), float("-inf"), float(False))
print(bool(0), bool(1), bool(""), bool("0"), bool([]), bool([0]), bool(0.0), bool(None))
print(str(1.0), str(-5), str(True), str(None), str([1, "a"]))
print(len("hello"), len([1, 2]), len((1,)), len({"a": 1}), len({1, 2, 2}), len(range(10)))
print(pow(2, 10), pow(2.0, -2), divmod(17, 5), divmod(-17, 5), divmod(7.5, 2))
print(min(0.1, 0.2) + max(0.3, 0.4), sum(x / 10 for x in range(11)))
print(max(1, 2.0), max(2.0, 1), min(True, 0), sum([True, True, False]))
print(int(2 ** 40 / 3), 10 ** 9 * 10 ** 9, 7 * -3, -2 ** 62 // 2)
