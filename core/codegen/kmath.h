// Kernel math: the float32 elementwise functions that generated kernels call, as C++ source text.
//
// Generated kernels are self-contained translation units with no #include, compiled with
// -O3 -march=native -fno-math-errno -fno-trapping-math -ffp-contract=off (the sign of zero is
// kept, nothing is reassociated or contracted). kernelMath() returns `static inline` definitions written for that
// setting: no headers (bit casts are __builtin_bit_cast; sqrt/fabs/floor/ceil/rint/fma are the
// __builtin_ forms, single instructions under -march=native), no branches and no table lookups, so
// a loop `for (i) out[i] = fl_exp(a[i]);` vectorizes (ymm/zmm) under both g++ and clang++. Every
// step that must not be reassociated is an explicit __builtin_fmaf / __builtin_fma (hardware FMA
// is assumed; without it they become calls to libm's fmaf/fma, correct but slow), and integer
// exponents are applied with integer adds, so -fassociative-math cannot undo the error-free steps.
// The code needs NaN and infinity semantics: never compile it with -ffinite-math-only.
//
// Method (coefficients: minimax fits rounded to float32, derived by tests/kmath/fit_coeffs.py):
//   exp, expm1   x = k ln2 + r (Cody-Waite, |r| <= ln2/2), expm1(r) = r + r^2 q(r) (q degree 4);
//                exp = (1 + expm1(r)) 2^k by fl_ldexp (two exact power-of-two scalings): inf
//                where exp overflows, LibTorch's subnormal results below 2^-126 (x < -87.34),
//                0 below -104 from a harmless argument (no subnormal arithmetic for -inf).
//                expm1 = 2 (2^(k-1) expm1(r) + (2^(k-1) - 1/2)).
//   log, log1p   x = (1 + f) 2^e with 1 + f in [sqrt(1/2), sqrt(2)), log1p(f) = f + f^2 P(f)
//                (P degree 8); log1p forms f = (1 + x) 2^-e - 1 in one fma, so no bits of x are
//                lost to the rounding of 1 + x.
//   exp_nonpos   exp for x <= 0 only (softmax's exp(x - max), sigmoid): k = rint(x log2 e) read
//                from the low bits of x log2 e + 1.5 2^23, 2^k by shifting them into the exponent,
//                exp(r) - 1 of degree 6; no clamp and no overflow path; 2^(k+64), then a scaling
//                by 2^-64: the same subnormals as exp. (fl_exp_normal: x >= -86.98 only.)
//   tanh         -m / (2 + m) with m = expm1(-2|x|), signed like x: relative accuracy near 0
//                without a second polynomial, one divide.
//   erf          |x| < 0.75: x (c0 + P(x^2)); else 1 - exp(Q(|x|)), Q ~ log(erfc) on [0.75, 4].
//   gelu         x Phi(x) with Phi(-|x|) = exp(Q(|x|)), Q ~ log of the normal tail on [0, 5.65]
//                (0 beyond), fitted for Phi's absolute error: one exp, no second branch.
//   sigmoid      e = exp_nonpos(-|x|): 1 / (1 + e) for x >= 0, e / (1 + e) below, one divide;
//                0 below -88.7228317, where LibTorch's 1 / (1 + exp(-x)) overflows exp.
//                (Newton-step reciprocals instead of the divide were no faster here, measured
//                with the kernels alone: a 512-bit divide every ~30 vector instructions is cheap.)
//   sin, cos     x = n pi/2 + r, odd/even polynomials on |r| <= pi/4, picked and signed by the
//                quadrant n mod 4. r by three-part Cody-Waite with fma for |x| < 2^20, by
//                Payne-Hanek above (fl_reduce_big: x's significand times the 96 bits of 2/pi
//                that matter for its exponent, in 64-bit integers); both computed, one selected.
//                The second costs ~5x the rest, so kernels call fl_sin_fast / fl_cos_fast (the
//                first only, noting any |x| >= 2^20) and run again with fl_sin / fl_cos only then.
//   pow          exp(y log|x|) with log|x| (degree 12 polynomial) and y log|x| in float64, then
//                the float exp kernel; C99 special cases (pow(x, 0) = 1, pow(1, y) = 1, negative
//                x with integer y signed by parity, NaN for negative x with non-integer y). About
//                5x the cost of exp: specialize constant exponents (2, 0.5, -1, ...) instead.
//   max, min     NaN-propagating, like torch.maximum / torch.minimum.
//   round        half to even (rint in the default rounding mode), like torch.round.
//
// Measured accuracy (tests/kmath/test_kmath.cpp: 10M points per function spread over the useful
// ranges, tiny arguments and subnormals included, against <cmath> float64; relative error where
// |reference| >= 1e-30; identical for g++ 12 and clang++ 15 on Sapphire Rapids, where every
// function's loop vectorizes on ymm under both):
//   fn        max rel err   max ulp   max rel diff to LibTorch 1.13 float32
//   exp       8.1e-8        0.96      1.1e-7
//   exp_nonpos 8.5e-8       1.01      1.2e-7
//   expm1     1.2e-7        1.43      1.2e-7
//   log       8.1e-8        0.92      1.2e-7
//   log1p     1.2e-7        1.42      1.2e-7   (inf for x > 1e38, as LibTorch's (Sleef's) log1p)
//   tanh      1.7e-7        2.49      2.1e-7
//   erf       1.0e-7        1.26      1.2e-7
//   sigmoid   1.8e-7        2.32      2.4e-7
//   gelu      1.8e-7        2.56      5.6e-7   (relative to max(|gelu(x)|, |x| / 2))
//   sin, cos  1.6e-7        1.49      1.2e-7   (every float, to 3.4e38)
//   pow       8.2e-8        0.98      1.2e-7
//   sqrt, abs, max, min, floor, ceil, round: exact; rsqrt: 1/sqrt, 8.9e-8 (1.47 ulp).
#pragma once

#include <string>
#include <vector>

namespace fl::codegen {

// C++ source defining the named functions and the helpers they use, in a fixed order, each
// `static inline`. Names: fl_exp fl_exp_nonpos fl_expm1 fl_log fl_log1p fl_tanh fl_erf fl_gelu fl_sigmoid fl_sin fl_cos
// fl_sin_fast fl_cos_fast (bool& big, x) fl_pow fl_sqrt fl_rsqrt fl_abs fl_max fl_min fl_floor fl_ceil fl_round
// fl_pow2_scale fl_unscale1 fl_unscale2 (var/std's exact scaling) fl_isnan (bool), and the
// helpers fl_bits / fl_from_bits etc. Throws std::invalid_argument for an unknown name.
std::string kernelMath(const std::vector<std::string>& names);

// Every name kernelMath() accepts, in emission order.
const std::vector<std::string>& kernelMathNames();

} // namespace fl::codegen
