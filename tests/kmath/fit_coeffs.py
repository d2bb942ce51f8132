#!/usr/bin/python3
"""Derives the polynomial coefficients used in core/codegen/kmath.cpp.

Each approximation is a weighted minimax fit (Lawson's iteratively reweighted least squares on a
dense Chebyshev grid) of a model `base(x) + sum_k c_k * phi_k(x)` to a float64 reference. Float32
coefficients are then rounded one at a time, lowest order first, refitting the remaining ones after
each rounding so that later coefficients absorb the rounding of earlier ones. Prints each fit's
maximum weighted error (in float64 arithmetic; the float32 error is measured by test_kmath).

Also prints the split constants (ln2, pi/2 as sums of float32 parts, from mpmath at 200 bits).

Run with Debian's python3 (numpy, mpmath): /usr/bin/python3 tests/kmath/fit_coeffs.py
"""
import math

import mpmath
import numpy as np


def f32(v):
    return float(np.float32(float(v)))


def grid(a, b, n=6000):
    k = np.arange(n)
    t = np.cos(np.pi * (k + 0.5) / n)
    return np.sort(0.5 * (a + b) + 0.5 * (b - a) * t)


def lawson(A, b, iters=150):
    w = np.full(len(b), 1.0 / len(b))
    best, best_err = None, np.inf
    for _ in range(iters):
        s = np.sqrt(w)
        c = np.linalg.lstsq(A * s[:, None], b * s, rcond=None)[0]
        r = np.abs(A @ c - b)
        if r.max() < best_err:
            best, best_err = c, r.max()
        w = w * (r + 1e-300)
        w /= w.sum()
    return best


def fit(name, x, target, base, basis, weight, single=True):
    """Minimise max |(base + sum c_k basis_k - target) * weight| over x."""
    phis = np.array([f(x) for f in basis]).T
    A = phis * weight[:, None]
    b = (target - base) * weight
    fixed = []
    n = len(basis)
    for k in range(n):
        c = lawson(A[:, k:], b - (A[:, :k] @ np.array(fixed) if fixed else 0))
        fixed.append(f32(c[0]) if single else float(c[0]))
    c = np.array(fixed)
    err = np.abs(A @ c - b).max()
    print(f"{name}: max weighted error {err:.3e}")
    for v in c:
        print(f"    {f32(v).hex() if single else v.hex()}  ({v:.9g})")
    return c


def powers(var, start, count):
    return [lambda x, k=k: var(x) ** k for k in range(start, start + count)]


SQRT_HALF = math.sqrt(0.5)
verf = np.vectorize(math.erf)
verfc = np.vectorize(math.erfc)

# expm1(r) = r + r^2 * q(r) on the exp/expm1 reduced range |r| <= ln2/2 (plus rounding margin);
# error relative to expm1(r) (the stricter of the exp and expm1 criteria). q degree 4: 1.4e-8, a
# tenth of float32's half ulp (degree 5 gave 4.4e-10 for one more multiply-add per call).
h = 0.5 * math.log(2) * 1.002
r = grid(-h, h)
fit("expm1 q(r)", r, np.expm1(r), r, powers(lambda t: t, 2, 5), 1 / np.abs(np.expm1(r)))

# exp(r) = 1 + r + r^2 * q(r), q degree 4, on the same range (fl_exp_poly, for fl_exp_nonpos): error
# relative to exp(r), not to expm1(r). Degree 3 would give 1.1e-7, and sigmoid (one exp, one
# divide) 2.7e-7 in test_kmath: too near its 3e-7 bound.
fit("exp q(r)", r, np.exp(r), 1 + r, powers(lambda t: t, 2, 5), 1 / np.exp(r))

# log1p(f) = f + f^2 * P(f), f = m - 1, m in [sqrt(1/2), sqrt(2)); error relative to log1p(f).
lo, hi = SQRT_HALF - 1 - 1e-6, math.sqrt(2) - 1 + 1e-6
f = grid(lo, hi)
fit("log1p P(f)", f, np.log1p(f), f, powers(lambda t: t, 2, 9), 1 / np.abs(np.log1p(f)))
# Same kernel in float64 for fl_pow (relative error target ~1e-11).
fit("log1p P(f) double", f, np.log1p(f), f, powers(lambda t: t, 2, 11), 1 / np.abs(np.log1p(f)),
    single=False)

# tanh(a) = a P(z) / Q(z), z = a^2, P and Q of degree 4 with P(0) = Q(0) = 1, on [0, 9] (tanh(9.01)
# rounds to 1); error relative to tanh(a). A rational fit: Loeb's linearisation (minimise
# |P - t Q| / Q_previous, t = tanh(a) / a) inside Lawson's reweighting. Its float64 error is 2e-8;
# float32 evaluation (two Horner chains and a divide) dominates, so the rounded coefficients are
# then tuned on the float32 error by tune_tanh.cpp: from the coefficients printed here, 2500 steps
# on [3, 10.05] took the maximum over every float from 3.11e-7 to 2.91e-7.
def rational(name, x, t, m, n, iters=200):
    z = x * x
    Zp = np.array([z ** k for k in range(1, m + 1)]).T
    Zq = np.array([z ** k for k in range(1, n + 1)]).T
    A = np.hstack([Zp, -t[:, None] * Zq])
    b = t - 1.0
    q_prev = np.ones_like(z)
    w = np.full(len(z), 1.0 / len(z))
    best, best_err = None, np.inf
    for _ in range(iters):
        s = np.sqrt(w) / (q_prev * t)
        c = np.linalg.lstsq(A * s[:, None], b * s, rcond=None)[0]
        P = 1 + Zp @ c[:m]
        Q = 1 + Zq @ c[m:]
        r = np.abs(P / Q - t) / t
        if r.max() < best_err:
            best, best_err = c, r.max()
        q_prev = Q
        w = w * (r + 1e-300)
        w /= w.sum()
    print(f"{name}: max relative error {best_err:.3e} (float64)")
    print("    P", [f32(v).hex() for v in best[:m]], " Q", [f32(v).hex() for v in best[m:]])
    return best


x = np.concatenate([grid(1e-6, 1, 3000), grid(1, 9, 5000)])
rational("tanh P(z)/Q(z)", x, np.tanh(x) / x, 4, 4)

# erf(x) = c0 * x + x * P(x^2) on [0, 0.75], c0 = float(2/sqrt(pi)); error relative to erf(x).
C0 = f32(2 / math.sqrt(math.pi))
x = grid(1e-6, 0.75)
e = verf(x)
fit("erf P(x^2)", x, e, C0 * x, [lambda t, k=k: t ** (2 * k + 1) for k in range(6)], 1 / e)
# erf(x) = 1 - exp(Q(x)) on [0.75, 4], Q ~ log(erfc(x)); error of Q weighted by erfc(x)/erf(x).
x = grid(0.75, 4.0)
fit("erfc log Q(x)", x, np.log(verfc(x)), 0 * x, powers(lambda t: t, 0, 7), verfc(x) / verf(x))

# gelu: Phi(-a) = exp(Q(a)) on [0, 5.65], Q degree 8 ~ log(erfc(a / sqrt 2) / 2); error of Q weighted
# by Phi(-a), i.e. the absolute error of Phi (what x Phi(x) needs).
a = grid(0.0, 5.65)
tail = 0.5 * verfc(a / math.sqrt(2))
fit("gelu log Phi(-a) Q(a)", a, np.log(tail), 0 * a, powers(lambda t: t, 0, 9), tail)

# sin(r) = r + r^3 * S(r^2), cos(r) = 1 + r^2 * C(r^2) on |r| <= pi/4 (plus rounding margin).
r = grid(1e-6, math.pi / 4 * 1.001)
fit("sin S(r^2)", r, np.sin(r), r, [lambda t, k=k: t ** (2 * k + 3) for k in range(4)], 1 / np.sin(r))
fit("cos C(r^2)", r, np.cos(r), 1 + 0 * r, [lambda t, k=k: t ** (2 * k + 2) for k in range(4)], 1 / np.cos(r))

# Constants. Cody-Waite ln2 for exp/expm1: the high part has 16 significant bits, so k * hi is exact
# for |k| <= 256 and x - k * hi is exact; log uses float32(ln2) plus its remainder.
mpmath.mp.prec = 200
LN2 = mpmath.log(2)
cw_hi = float.fromhex("0x1.62e4p-1")
print("ln2 Cody-Waite", cw_hi.hex(), f32(LN2 - cw_hi).hex())
print("ln2 float32 + remainder", f32(LN2).hex(), f32(LN2 - f32(LN2)).hex())
parts = []
for _ in range(3):
    parts.append(f32(mpmath.pi / 2 - sum(parts)))
print("pi/2 = three float32 parts", [v.hex() for v in parts])
print("log2(e)", f32(1 / LN2).hex(), "2/pi", f32(2 / mpmath.pi).hex(), "2/sqrt(pi)", f32(2 / mpmath.sqrt(mpmath.pi)).hex())
print("float64 ln2", float(LN2).hex(), "log2(e)", float(1 / LN2).hex())
