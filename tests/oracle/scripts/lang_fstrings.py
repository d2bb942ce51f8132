# covers: f-strings with format specs: .3f, >5, <5, ^7, +.2e, g, %, d with padding, commas, !r, !s, nested fields, {x=}
import torch
import math

torch.manual_seed(0)
x = 3.14159265
n = 42
v = -0.000123456
s = "relu"
print(f"{x:.3f}|{x:.0f}|{x:10.4f}|{x:<10.2f}|{x:^10.1f}|")
print(f"{n:>5}|{n:<5}|{n:^5}|{n:05d}|{n:+d}|{-n:d}|{n:x}|{n:b}|{n:o}|")
print(f"{v:+.2e}|{v:.3e}|{1234.5:e}|{x:E}|")
print(f"{x:g}|{1e-7:g}|{123456789.0:g}|{0.0001:g}|{100.0:g}|")
print(f"{0.256:.1%}|{1234567:,}|{1234567.891:,.2f}|")
print(f"{s!r}|{s!s}|{s:>8}|{s:*^10}|{s:.2}|")
print(f"{x=}|{n = }|{s=!s}|{x=:.2f}|")
w, p = 10, 3
print(f"{x:{w}.{p}f}|{n:{w}}|")
print(f"{'nested'}|{[1, 2]}|{ {'a': 1} }|{(1, 2)}|{None}|{True}|")
print(f"{n * 2} {n // 5} {math.pi:.5f} {len(s)}")
print(f"{{literal braces}} {n}")
items = ["a", "b"]
print(f"{items[0]}-{items[-1]} {items!r}")
print(f"{1.0}|{2.50}|{1e20}|{1 / 3}|")
print(f"{3:.2f}|{-1:5}|{True:d}|{2.5:.0f}|{3.5:.0f}|")
loss = 0.123456
print(f"epoch {1:03d} loss={loss:.4f} acc={0.9:6.2%}")
print("old style: {} + {} = {:.1f}".format(1, 2, 3.0))
print("named: {a}/{b:>4}".format(a="x", b="y"))
