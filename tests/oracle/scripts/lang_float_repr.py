# covers: shortest float repr edge cases, inf/nan, -0.0, scientific thresholds, int/float conversions, big ints
import torch
import math

torch.manual_seed(0)
vals = [0.1 + 0.2, 1 / 3, 2 / 3, 1e15, 1e16, 1.5e16, 1e-4, 1e-5, 0.0001234, 123456789012345678.0,
        1e22, 1e-300, 5e-324, 1.7976931348623157e308, 100.0, 0.5, 2.675, 1.1 * 3]
for v in vals:
    print(v, repr(v), str(v))
print(float("inf"), -float("inf"), float("nan"), math.inf, -math.inf)
print([float("inf"), float("nan")], (math.nan,))
print(-0.0, 0.0 == -0.0, abs(-0.0), 0.0 * -1)
print(float(3), float("2.5"), float("-1e-3"), float(" 7 "), int(3.99), int(-3.99), int("42"), int(" -8 "))
print(2 ** 62, 2 ** 62 - 1 + 2 ** 62, -(2 ** 62) * 2, 10 ** 17 + 1)
print(7.0 / 2, 7 / 2.0, 1e308 * 10, -1e308 * 10)
nan = float("nan")
print(nan == nan, nan != nan, nan < 1, nan > 1, math.isnan(nan), math.isinf(-math.inf))
print(round(0.1 + 0.2, 10), 3.0 == 3, 0.1 * 3 == 0.3, math.isclose(0.1 * 3, 0.3))
print(sum([0.1] * 10), 0.1 * 10, 1 - 0.9)
print(float(2 ** 53 + 1), 2 ** 53 + 1, int(1e18))
