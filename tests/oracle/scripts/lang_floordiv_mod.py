# covers: floor division and modulo with negative ints and floats, divmod-like identities, true division
import torch

torch.manual_seed(0)
pairs = [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 3), (6, 3), (-6, 3), (1, 5), (-1, 5)]
for a, b in pairs:
    print(a, b, a // b, a % b, a / b, (a // b) * b + a % b == a)
fpairs = [(7.5, 2), (-7.5, 2), (7.5, -2.0), (-7.5, -2.0), (5.0, 0.3), (-0.5, 1.0), (1e10, 3.0)]
for a, b in fpairs:
    print(a, b, a // b, a % b)
print(-1 % 360, -361 % 360, 361 % 360)
print(-3.0 // 1, 3.7 // 1, -3.7 // 1)
print(10 / 4, 10 // 4, -10 / 4, -10 // 4, 9 / 3)
print(type(10 / 5).__name__, type(10 // 5).__name__, type(10.0 // 5).__name__)
print(2 ** 10, 2 ** -1, (-2) ** 3, -2 ** 2, 2 ** 0.5, 10 ** 18)
print(7 % 2.5, -7 % 2.5, 0.1 % 0.03)
