# covers: math module: sqrt, exp, log, log2, log10, pi, e, cos, sin, tanh, floor, ceil, inf, isclose, erf, pow, fabs, nan checks
import torch
import math
from math import sqrt, pi as PI

torch.manual_seed(0)
print(math.sqrt(2), sqrt(16), math.exp(1), math.exp(-2.5), math.log(10), math.log(8, 2))
print(math.log2(1024), math.log10(1000), math.log1p(1e-10))
print(math.pi, math.e, PI == math.pi, math.tau if hasattr(math, "tau") else 2 * math.pi)
print(math.cos(0), math.sin(math.pi / 2), math.cos(math.pi), math.sin(1.0), math.tan(0.5))
print(math.tanh(0.5), math.tanh(-20), math.atan2(1, 1), math.acos(0.5))
print(math.floor(2.7), math.floor(-2.7), math.ceil(2.1), math.ceil(-2.1), type(math.floor(2.5)).__name__)
print(math.inf, -math.inf, math.inf > 1e308, math.isinf(math.inf), math.isnan(math.nan), math.isfinite(1.0))
print(math.isclose(1.0, 1.0 + 1e-10), math.isclose(1.0, 1.1), math.isclose(1.0, 1.05, rel_tol=0.1),
      math.isclose(0.0, 1e-9, abs_tol=1e-8))
print(math.erf(0.5), math.erf(-1.0), math.erfc(0.5), 0.5 * (1 + math.erf(1 / math.sqrt(2))))
print(math.pow(2, 0.5), math.pow(2, 10), math.fabs(-3), math.trunc(-2.7), math.copysign(1.0, -0.0))
print(math.gcd(12, 18), math.factorial(10), math.prod([1, 2, 3, 4]), math.hypot(3, 4))
print(math.degrees(math.pi), math.radians(180), math.fsum([0.1] * 10))
x = 1.0
gelu = 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
print(gelu, 0.5 * x * (1 + math.erf(x / math.sqrt(2))))
print(round(math.sqrt(1 / 64), 5), f"{math.log(2):.6f}")
