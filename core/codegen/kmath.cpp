#include "core/codegen/kmath.h"

#include <algorithm>
#include <stdexcept>

namespace fl::codegen {
namespace {

struct Fn {
    const char* name;
    std::vector<const char*> deps; // entries earlier in the table
    const char* text;
};

// In emission order: every entry comes after the entries it uses.
// Long: a table, one entry per math function (its C source and what it calls), read top to bottom.
const std::vector<Fn>& table() {
    static const std::vector<Fn> fns = {
        {"fl_bits", {}, R"(
static inline unsigned fl_bits(float x) { return __builtin_bit_cast(unsigned, x); }
)"},
        {"fl_from_bits", {}, R"(
static inline float fl_from_bits(unsigned u) { return __builtin_bit_cast(float, u); }
)"},
        {"fl_int_bits", {"fl_bits"}, R"(
// k (integer-valued, |k| < 2^22) as a two's complement integer.
static inline unsigned fl_int_bits(float k) { return fl_bits(k + 0x1.8p23f) - 0x4b400000u; }
)"},
        {"fl_ldexp", {"fl_bits", "fl_from_bits", "fl_int_bits"}, R"(
// p * 2^k for p in [0.5, 2] and integer-valued k in [-150, 128]: two exact power-of-two
// scalings, one rounding (inf on overflow, correctly rounded subnormals).
static inline float fl_ldexp(float p, float k) {
    unsigned ki = fl_int_bits(k);
    unsigned h = (unsigned)((int)ki >> 1);
    return fl_from_bits(fl_bits(p) + ((ki - h) << 23)) * fl_from_bits((h + 127u) << 23);
}
)"},
        {"fl_expm1_poly", {}, R"(
// expm1(r) for |r| <= ln2/2, to 1.4e-8 relative to expm1(r).
static inline float fl_expm1_poly(float r) {
    float q = __builtin_fmaf(0x1.6b8d7ep-10f, r, 0x1.1226b8p-7f);
    q = __builtin_fmaf(q, r, 0x1.5557p-5f);
    q = __builtin_fmaf(q, r, 0x1.5554b2p-3f);
    q = __builtin_fmaf(q, r, 0x1.fffffep-2f);
    return __builtin_fmaf(r * r, q, r);
}
)"},
        {"fl_exp", {"fl_ldexp", "fl_expm1_poly"}, R"(
// exp(x) = (1 + expm1(r)) 2^k, scaled by fl_ldexp: one rounding for normal results, inf exactly
// where exp(x) > FLT_MAX, and subnormal results below 2^-126 (x < -87.34) as LibTorch's exp gives
// them. Below -104 the result rounds to 0 and is 0 without computing: an argument of 0 stands in,
// so that -inf-masked elements make no subnormal (a microcode assist per vector on x86). NaN is
// passed through: as k, its payload bits would shift fl_ldexp's exponent and make a number.
static inline float fl_exp(float x) {
    bool zero = x < -104.0f;
    x = zero ? 0.0f : x;
    x = x > 89.0f ? 89.0f : x;
    float k = __builtin_rintf(x * 0x1.715476p+0f);
    float r = __builtin_fmaf(k, -0x1.62e4p-1f, x); // exact
    r = __builtin_fmaf(k, -0x1.7f7d1cp-20f, r);
    float v = fl_ldexp(1.0f + fl_expm1_poly(r), k);
    v = x != x ? x : v;
    return zero ? 0.0f : v;
}
)"},
        {"fl_exp_poly", {}, R"(
// exp(r) - 1 for |r| <= ln2/2, to 3.2e-9 relative to exp(r) (not to r: see fl_expm1_poly).
static inline float fl_exp_poly(float r) {
    float q = __builtin_fmaf(0x1.6a4154p-10f, r, 0x1.1239c6p-7f);
    q = __builtin_fmaf(q, r, 0x1.5558bcp-5f);
    q = __builtin_fmaf(q, r, 0x1.555492p-3f);
    q = __builtin_fmaf(q, r, 0x1.fffffcp-2f);
    return __builtin_fmaf(r * r, q, r);
}
)"},
        {"fl_exp_split", {"fl_bits", "fl_from_bits"}, R"(
// x = k ln2 + r with |r| <= ln2/2 for x <= 0 (and NaN): returns 2^k, a normal float for
// k >= -126. k = rint(x log2 e) comes from the low bits of x log2 e + 1.5 * 2^23 + 127, which
// are k + 127, the exponent field of 2^k: shifted into place, with no clamp, no overflow path and
// no add of the bias.
static inline float fl_exp_split(float x, float& r) {
    float t = __builtin_fmaf(x, 0x1.715476p+0f, 0x1.8000fep23f); // 1.5 * 2^23 + 127
    float k = t - 0x1.8000fep23f;
    r = __builtin_fmaf(k, -0x1.62e4p-1f, x); // exact
    r = __builtin_fmaf(k, -0x1.7f7d1cp-20f, r);
    return fl_from_bits(fl_bits(t) << 23);
}
)"},
        {"fl_exp_normal", {"fl_exp_split", "fl_exp_poly"}, R"(
// exp(x) for x in [-86.98, 0] (and NaN), where the result is a normal float: the arguments of
// gelu's and erf's exp, which stay above -19. Wrong below -86.98 (use fl_exp_nonpos there).
static inline float fl_exp_normal(float x) {
    float r;
    float s = fl_exp_split(x, r); // 2^k
    return __builtin_fmaf(s, fl_exp_poly(r), s);
}
)"},
        {"fl_exp_nonpos", {"fl_bits", "fl_from_bits", "fl_exp_poly"}, R"(
// exp(x) for x <= 0 (and NaN): softmax's exp(x - max), sigmoid's exp(-|x|). As fl_exp_split, with
// 2^k made as 2^(k+64), a normal float for every k >= -150, and the result scaled by 2^-64 after:
// exact for normal results, and the subnormal results below 2^-126 (x < -87.34) that LibTorch's
// exp gives. Below -104 the result is 0, from an argument of 0 (no subnormal arithmetic for
// -inf-masked scores). Wrong above x = 63 ln 2: never call it on positive arguments.
static inline float fl_exp_nonpos(float x) {
    bool zero = x < -104.0f;
    x = zero ? 0.0f : x;
    float t = __builtin_fmaf(x, 0x1.715476p+0f, 0x1.8000fep23f + 64.0f); // low bits: k + 127 + 64
    float k = t - (0x1.8000fep23f + 64.0f);
    float r = __builtin_fmaf(k, -0x1.62e4p-1f, x); // exact
    r = __builtin_fmaf(k, -0x1.7f7d1cp-20f, r);
    float s = fl_from_bits(fl_bits(t) << 23); // 2^(k+64)
    float v = __builtin_fmaf(s, fl_exp_poly(r), s) * 0x1p-64f;
    return zero ? 0.0f : v;
}
)"},
        {"fl_expm1", {"fl_from_bits", "fl_int_bits", "fl_expm1_poly"}, R"(
static inline float fl_expm1(float x) {
    x = x < -18.0f ? -18.0f : x; // expm1(-18) rounds to -1
    x = x > 89.0f ? 89.0f : x;
    float k = __builtin_rintf(x * 0x1.715476p+0f);
    float r = __builtin_fmaf(k, -0x1.62e4p-1f, x);
    r = __builtin_fmaf(k, -0x1.7f7d1cp-20f, r);
    float s = fl_from_bits((fl_int_bits(k) + 126u) << 23); // 2^(k-1)
    float v = 2.0f * __builtin_fmaf(s, fl_expm1_poly(r), s - 0.5f);
    return __builtin_fabsf(x) < 0x1p-24f ? x : v; // expm1(x) rounds to x there; keeps -0.0
}
)"},
        {"fl_log_split", {"fl_bits", "fl_from_bits"}, R"(
// x = (1 + f) * 2^e with 1 + f in [sqrt(1/2), sqrt(2)), for positive finite x; returns f.
static inline float fl_log_split(float x, float& e) {
    bool sub = x < 0x1p-126f;
    unsigned ix = fl_bits(sub ? x * 0x1p23f : x) - 0x3f3504f3u;
    e = (float)((int)ix >> 23) - (sub ? 23.0f : 0.0f);
    return fl_from_bits((ix & 0x7fffffu) + 0x3f3504f3u) - 1.0f;
}
)"},
        {"fl_log_poly", {}, R"(
// log((1 + f) * 2^e) for 1 + f in [sqrt(1/2), sqrt(2)).
static inline float fl_log_poly(float f, float e) {
    float p = __builtin_fmaf(-0x1.39b7bep-4f, f, 0x1.08cb90p-3f);
    p = __builtin_fmaf(p, f, -0x1.0f276ep-3f);
    p = __builtin_fmaf(p, f, 0x1.225a9ap-3f);
    p = __builtin_fmaf(p, f, -0x1.542650p-3f);
    p = __builtin_fmaf(p, f, 0x1.99a52ap-3f);
    p = __builtin_fmaf(p, f, -0x1.000434p-2f);
    p = __builtin_fmaf(p, f, 0x1.55554ep-2f);
    p = __builtin_fmaf(p, f, -0x1.fffff8p-2f);
    float t = __builtin_fmaf(f * f, p, __builtin_fmaf(e, -0x1.05c610p-29f, f));
    return __builtin_fmaf(e, 0x1.62e430p-1f, t);
}
)"},
        {"fl_log", {"fl_log_split", "fl_log_poly"}, R"(
static inline float fl_log(float x) {
    float e;
    float f = fl_log_split(x, e);
    float r = fl_log_poly(f, e);
    r = x == __builtin_inff() ? x : r;
    r = x == 0.0f ? -__builtin_inff() : r;
    return x < 0.0f || x != x ? __builtin_nanf("") : r;
}
)"},
        {"fl_log1p", {"fl_bits", "fl_from_bits", "fl_log_poly"}, R"(
static inline float fl_log1p(float x) {
    unsigned ix = fl_bits(1.0f + x) - 0x3f3504f3u;
    float e = (float)((int)ix >> 23);
    float s = fl_from_bits(0x3f800000u - (ix & 0xff800000u)); // 2^-e, valid for e <= 126
    // f = (1 + x) 2^-e - 1 in one rounding; from x >= 2^24 on, the rounding of 1 + x no longer
    // matters (relative 2^-24 next to log(x) > 16) and f comes from its bits.
    float f = x < 0x1p24f ? __builtin_fmaf(x, s, s - 1.0f) : fl_from_bits((ix & 0x7fffffu) + 0x3f3504f3u) - 1.0f;
    float r = fl_log_poly(f, e);
    float ax = __builtin_fabsf(x);
    r = ax < 0x1p-24f ? x : r; // log1p(x) rounds to x there; keeps -0.0
    // LibTorch's (Sleef's) log1p rounds a subnormal x to a multiple of 2^-148 (x / 2, then doubled),
    // with the sign of a zero result lost: log1p(2^-149) is 0, log1p(3 2^-149) is 4 2^-149
    r = ax < 0x1p-126f && ax != 0.0f ? (x * 0.5f) * 2.0f + 0.0f : r;
    r = x > 1e38f ? __builtin_inff() : r; // as LibTorch's (Sleef's) log1p, which gives inf above 1e38
    r = x == -1.0f ? -__builtin_inff() : r;
    return x < -1.0f || x != x ? __builtin_nanf("") : r;
}
)"},
        {"fl_tanh", {}, R"(
// tanh(x) = x P(x^2) / Q(x^2), P and Q of degree 4: a minimax fit of the relative error on [0, 9]
// (tests/kmath/fit_coeffs.py), its float32 coefficients then tuned on the float32 error
// (tune_tanh.cpp): 2.91e-7 relative at most over every float, about 5 ulp near 1. tanh(9.01) rounds
// to 1; x^2 is clamped at 100, where 10 P / Q is past 1, and the result at -1 and 1: the sign comes
// with x (the same results as computing on |x| and copying the sign, one operation fewer). Two
// polynomials and a divide: 14 operations against 21 for -m / (2 + m) with m = expm1(-2|x|).
static inline float fl_tanh(float x) {
    float z = x * x;
    z = z > 100.0f ? 100.0f : z;
    float p = __builtin_fmaf(0x1.cd18cep-27f, z, 0x1.5aa318p-16f);
    p = __builtin_fmaf(p, z, 0x1.ca9eaep-9f);
    p = __builtin_fmaf(p, z, 0x1.121a98p-3f);
    p = __builtin_fmaf(p, z, 1.0f);
    float q = __builtin_fmaf(0x1.a302a4p-21f, z, 0x1.5916eep-12f);
    q = __builtin_fmaf(q, z, 0x1.a82f58p-6f);
    q = __builtin_fmaf(q, z, 0x1.de629ap-2f);
    q = __builtin_fmaf(q, z, 1.0f);
    float r = x * p / q;
    r = r > 1.0f ? 1.0f : r;
    return r < -1.0f ? -1.0f : r;
}
)"},
        {"fl_erf", {"fl_bits", "fl_from_bits", "fl_exp_normal"}, R"(
static inline float fl_erf(float x) {
    float a = __builtin_fabsf(x);
    float z = a * a;
    float p = __builtin_fmaf(-0x1.625f78p-11f, z, 0x1.4f448ap-8f);
    p = __builtin_fmaf(p, z, -0x1.b7abc2p-6f);
    p = __builtin_fmaf(p, z, 0x1.ce2af4p-4f);
    p = __builtin_fmaf(p, z, -0x1.81273ap-2f);
    p = __builtin_fmaf(p, z, -0x1.02b1b8p-24f);
    float small = __builtin_fmaf(a, 0x1.20dd76p+0f, a * p);
    float b = a > 4.0f ? 4.0f : a; // erf(4) rounds to 1
    float q = __builtin_fmaf(0x1.bf0b14p-13f, b, -0x1.a42ec2p-9f);
    q = __builtin_fmaf(q, b, 0x1.765876p-6f);
    q = __builtin_fmaf(q, b, -0x1.aec100p-4f);
    q = __builtin_fmaf(q, b, -0x1.458d0ep-1f);
    q = __builtin_fmaf(q, b, -0x1.20e104p+0f);
    q = __builtin_fmaf(q, b, -0x1.67228ap-16f); // log(erfc(b))
    float large = 1.0f - fl_exp_normal(q); // q in [-18, 0) on [0, 4]
    float r = a < 0.75f ? small : large;
    return fl_from_bits(fl_bits(r) | (fl_bits(x) & 0x80000000u));
}
)"},
        {"fl_gelu", {"fl_exp_normal"}, R"(
// gelu(x) = x Phi(x) (the erf form), Phi the standard normal CDF. Phi(-|x|) = exp(Q(|x|)), Q a fit
// of log(erfc(|x| / sqrt 2) / 2) on [0, 5.65] weighted for the absolute error of Phi (4e-8), which
// is what gelu needs: 0.5 x (1 + erf(x / sqrt 2)) cancels for negative x anyway. Beyond 5.65,
// Phi(-|x|) < 8e-9 is taken as 0. One exp and no second branch, against erf's two.
static inline float fl_gelu(float x) {
    float a = __builtin_fabsf(x);
    float q = __builtin_fmaf(-0x1.067700p-19f, a, 0x1.c84cdep-16f);
    q = __builtin_fmaf(q, a, -0x1.0ddb96p-13f);
    q = __builtin_fmaf(q, a, -0x1.90e74ep-14f);
    q = __builtin_fmaf(q, a, 0x1.40e614p-8f);
    q = __builtin_fmaf(q, a, -0x1.2a1684p-5f);
    q = __builtin_fmaf(q, a, -0x1.45f028p-2f);
    q = __builtin_fmaf(q, a, -0x1.98846cp-1f);
    q = __builtin_fmaf(q, a, -0x1.62e430p-1f); // log(Phi(-a)), < 0
    float e = a > 5.65f ? 0.0f : fl_exp_normal(q); // q in [-18.8, -0.69] on [0, 5.65]
    return x * (x >= 0.0f ? 1.0f - e : e);
}
)"},
        {"fl_sigmoid", {"fl_exp_nonpos"}, R"(
// LibTorch computes 1 / (1 + exp(-x)): 0 where exp(-x) overflows (x < -88.7228317), so it is 0 here.
static inline float fl_sigmoid(float x) {
    float e = fl_exp_nonpos(-__builtin_fabsf(x)); // in [0, 1]
    float v = (x >= 0.0f ? 1.0f : e) / (1.0f + e); // sigmoid(-|x|) = e / (1 + e)
    return x < -0x1.62e42ep+6f ? 0.0f : v;
}
)"},
        {"fl_reduce_big", {"fl_bits"}, R"(
// Payne-Hanek reduction of a = |x| for finite a >= 2^20: returns r = a - n pi/2 (|r| <= pi/4) and
// n mod 4 in `quadrant`. a = m 2^(e-150) with m its 24-bit significand; the bits of 2/pi before the
// 96 taken here give multiples of 4 (nothing mod 4), so m times that window, in fixed point with 2
// integer and 62 fraction bits, is a (2/pi) mod 4 to 2^-62 (|r| of a float is never below about
// 2^-30). The window's four 32-bit words come from masks, not a table, so both gcc and clang
// vectorize the loop; its fraction goes to double as two int32 halves (no int64 conversion on AVX2).
__attribute__((always_inline)) static inline float fl_reduce_big(float a, unsigned& quadrant) {
    unsigned ix = fl_bits(a);
    unsigned long m = (ix & 0x7fffffu) | 0x800000u;
    unsigned e = ix >> 23;
    unsigned o = (e < 147u ? 147u : e) - 120u; // bit offset of the window, after 32 zero bits
    unsigned w = o >> 5, s = o & 31u;          // w <= 4
    unsigned long m1 = 0ul - (w >= 1u), m2 = 0ul - (w >= 2u), m3 = 0ul - (w >= 3u), m4 = 0ul - (w >= 4u);
    // the words w .. w + 3 of 0, then 2/pi's bits: 0xa2f9836e 4e441529 fc2757d1 f534ddc0 db629599 3c439041 fe5163ab
    unsigned long t0 = 0x00000000ul ^ (m1 & 0xa2f9836eul) ^ (m2 & (0xa2f9836eul ^ 0x4e441529ul)) ^ (m3 & (0x4e441529ul ^ 0xfc2757d1ul)) ^ (m4 & (0xfc2757d1ul ^ 0xf534ddc0ul));
    unsigned long t1 = 0xa2f9836eul ^ (m1 & (0xa2f9836eul ^ 0x4e441529ul)) ^ (m2 & (0x4e441529ul ^ 0xfc2757d1ul)) ^ (m3 & (0xfc2757d1ul ^ 0xf534ddc0ul)) ^ (m4 & (0xf534ddc0ul ^ 0xdb629599ul));
    unsigned long t2 = 0x4e441529ul ^ (m1 & (0x4e441529ul ^ 0xfc2757d1ul)) ^ (m2 & (0xfc2757d1ul ^ 0xf534ddc0ul)) ^ (m3 & (0xf534ddc0ul ^ 0xdb629599ul)) ^ (m4 & (0xdb629599ul ^ 0x3c439041ul));
    unsigned long t3 = 0xfc2757d1ul ^ (m1 & (0xfc2757d1ul ^ 0xf534ddc0ul)) ^ (m2 & (0xf534ddc0ul ^ 0xdb629599ul)) ^ (m3 & (0xdb629599ul ^ 0x3c439041ul)) ^ (m4 & (0x3c439041ul ^ 0xfe5163abul));
    unsigned long w2 = ((t0 << 32 | t1) << s) >> 32;
    unsigned long w1 = ((t1 << 32 | t2) << s) >> 32;
    unsigned long w0 = ((t2 << 32 | t3) << s) >> 32;
    unsigned long p0 = m * w0;
    unsigned long p1 = m * w1 + (p0 >> 32);
    unsigned long p2 = m * w2 + (p1 >> 32);
    unsigned long f = (p2 << 32) | (p1 & 0xffffffffu); // bits 95..32 of m W: a (2/pi) mod 4 times 2^62
    quadrant = (unsigned)((f + (1ul << 61)) >> 62);    // rounded to the nearest
    unsigned long g = f << 2;                          // the signed fraction, in [-1/2, 1/2), times 2^64
    double d = __builtin_fma((double)(int)(unsigned)(g >> 32), 0x1p21, (double)(int)(unsigned)((g >> 11) & 0x1fffffu));
    return (float)(d * 0x1.921fb54442d18p-53); // * pi/2 / 2^53
}
)"},
        {"fl_sincos_cw", {"fl_int_bits"}, R"(
// Cody-Waite reduction by pi/2 in three parts, for |x| < 2^20 (and inf, NaN: r is NaN): returns
// r = x - n pi/2 and n mod 4 in `quadrant`.
static inline float fl_sincos_cw(float x, unsigned& quadrant) {
    float n = __builtin_rintf(x * 0x1.45f306p-1f);
    float r = __builtin_fmaf(n, -0x1.921fb6p+0f, x); // exact
    r = __builtin_fmaf(n, 0x1.777a5cp-25f, r);
    r = __builtin_fmaf(n, 0x1.ee59dap-50f, r);
    quadrant = fl_int_bits(n - 4.0f * __builtin_floorf(0.25f * n));
    return r;
}
)"},
        {"fl_sincos_eval", {"fl_bits", "fl_from_bits"}, R"(
// sin(x) for q = 0, cos(x) for q = 1, from x's reduction r (|r| <= pi/4) and quadrant.
static inline float fl_sincos_eval(float x, float r, unsigned quadrant, unsigned q) {
    quadrant += q;
    float z = r * r;
    float s = __builtin_fmaf(0x1.7c3068p-19f, z, -0x1.a0595ap-13f);
    s = __builtin_fmaf(s, z, 0x1.111174p-7f);
    s = __builtin_fmaf(s, z, -0x1.555556p-3f);
    s = __builtin_fmaf(r * z, s, r);
    float c = __builtin_fmaf(0x1.99e80ep-16f, z, -0x1.6c0c28p-10f);
    c = __builtin_fmaf(c, z, 0x1.55554ap-5f);
    c = __builtin_fmaf(c, z, -0.5f);
    c = __builtin_fmaf(c, z, 1.0f);
    float v = (quadrant & 1u) ? c : s;
    v = fl_from_bits(fl_bits(v) ^ ((quadrant & 2u) << 30));
    return ((q == 0u) & (__builtin_fabsf(x) < 0x1p-12f)) ? x : v; // sin(x) rounds to x there; keeps -0.0 (r is +0)
}
)"},
        {"fl_sincos", {"fl_bits", "fl_sincos_cw", "fl_reduce_big", "fl_sincos_eval"}, R"(
// sin(x) for q = 0, cos(x) for q = 1, for every float: Cody-Waite below 2^20, Payne-Hanek
// (fl_reduce_big) above, both computed and one selected (branch-free, so the loop vectorizes):
// 1.6e-7 relative at most, as LibTorch's sin and cos. The Payne-Hanek path costs about 5x the
// rest: kernels run fl_sin_fast first, and this only where an argument reached 2^20.
__attribute__((always_inline)) static inline float fl_sincos(float x, unsigned q) {
    float a = __builtin_fabsf(x);
    unsigned quadrant, qb;
    float r = fl_sincos_cw(x, quadrant);
    float rb = fl_reduce_big(a, qb);
    bool neg = fl_bits(x) >> 31;
    bool big = a >= 0x1p20f && a <= 0x1.fffffep127f; // inf and NaN take the first path: NaN
    r = big ? (neg ? -rb : rb) : r;
    quadrant = big ? (neg ? 0u - qb : qb) : quadrant;
    return fl_sincos_eval(x, r, quadrant, q);
}
)"},
        {"fl_sincos_fast", {"fl_sincos_cw", "fl_sincos_eval"}, R"(
// fl_sincos for |x| < 2^20 (and inf, NaN); sets `big` where |x| is past that (the kernel then
// runs again with fl_sincos).
static inline float fl_sincos_fast(float x, unsigned q, bool& big) {
    big |= __builtin_fabsf(x) >= 0x1p20f;
    unsigned quadrant;
    float r = fl_sincos_cw(x, quadrant);
    return fl_sincos_eval(x, r, quadrant, q);
}
)"},
        {"fl_sin", {"fl_sincos"}, R"(
static inline float fl_sin(float x) { return fl_sincos(x, 0u); }
)"},
        {"fl_cos", {"fl_sincos"}, R"(
static inline float fl_cos(float x) { return fl_sincos(x, 1u); }
)"},
        {"fl_sin_fast", {"fl_sincos_fast"}, R"(
static inline float fl_sin_fast(bool& big, float x) { return fl_sincos_fast(x, 0u, big); }
)"},
        {"fl_cos_fast", {"fl_sincos_fast"}, R"(
static inline float fl_cos_fast(bool& big, float x) { return fl_sincos_fast(x, 1u, big); }
)"},
        {"fl_log1p_poly_d", {}, R"(
// log1p(f) in float64 for 1 + f in [sqrt(1/2), sqrt(2)), relative error ~1e-10.
static inline double fl_log1p_poly_d(double f) {
    double p = __builtin_fma(-0x1.eb0a2d642ed37p-5, f, 0x1.b760e4d51b569p-4);
    p = __builtin_fma(p, f, -0x1.bd418c109f5f7p-4);
    p = __builtin_fma(p, f, 0x1.c36c867a3e376p-4);
    p = __builtin_fma(p, f, -0x1.fc6bfd829da8dp-4);
    p = __builtin_fma(p, f, 0x1.2492333e273f6p-3);
    p = __builtin_fma(p, f, -0x1.5568871c759aap-3);
    p = __builtin_fma(p, f, 0x1.999a1b11813d7p-3);
    p = __builtin_fma(p, f, -0x1.ffffacf02da0fp-3);
    p = __builtin_fma(p, f, 0x1.5555546d4ae35p-2);
    p = __builtin_fma(p, f, -0x1.00000018692abp-1);
    return __builtin_fma(f * f, p, f);
}
)"},
        {"fl_pow", {"fl_bits", "fl_ldexp", "fl_expm1_poly", "fl_log_split", "fl_log1p_poly_d"}, R"(
static inline float fl_pow(float x, float y) {
    float a = __builtin_fabsf(x);
    float e;
    float f = fl_log_split(a, e);
    double l = __builtin_fma((double)e, 0x1.62e42fefa39efp-1, fl_log1p_poly_d((double)f)); // log|x|
    double t = (double)y * l;
    t = t < -104.0 ? -104.0 : t;
    t = t > 89.0 ? 89.0 : t;
    double k = __builtin_rint(t * 0x1.71547652b82fep+0);
    float r = (float)__builtin_fma(k, -0x1.62e42fefa39efp-1, t);
    float v = fl_ldexp(1.0f + fl_expm1_poly(r), (float)k);
    // C99 special cases, in order of precedence (later wins).
    float zeroOrInf = (a == 0.0f) == (y < 0.0f) ? __builtin_inff() : 0.0f;
    v = a == 0.0f || a == __builtin_inff() ? zeroOrInf : v;
    v = x != x || y != y ? __builtin_nanf("") : v;
    v = a == 1.0f ? 1.0f : v;
    bool yint = __builtin_floorf(y) == y;
    bool yodd = yint && __builtin_floorf(0.5f * y) != 0.5f * y;
    v = yodd && (fl_bits(x) >> 31) ? -v : v;
    v = x < 0.0f && !yint && a != __builtin_inff() ? __builtin_nanf("") : v;
    return y == 0.0f ? 1.0f : v;
}
)"},
        {"fl_sqrt", {}, R"(
static inline float fl_sqrt(float x) { return __builtin_sqrtf(x); }
)"},
        {"fl_rsqrt", {}, R"(
static inline float fl_rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
)"},
        {"fl_opaque", {}, R"(
// The value, unseen by the optimizer: a reciprocal computed once per row stays one; a constant
// that a compare reads is not known to be non-NaN (comparedConstant in codegen.cpp).
static inline float fl_opaque(float x) {
    volatile float v = x;
    return v;
}
)"},
        {"fl_f2i64", {}, R"(
// float to int64 as x86-64 converts (and so LibTorch's eager cast there): NaN and values out of
// int64's range give INT64_MIN, where a C cast of them is undefined (x.long() of NaN differed).
static inline long fl_f2i64(float x) {
    return x != x || x >= 9223372036854775808.0f || x < -9223372036854775808.0f ? (long)(-9223372036854775807L - 1) : (long)x;
}
)"},
        {"fl_abs", {}, R"(
static inline float fl_abs(float x) { return __builtin_fabsf(x); }
)"},
        {"fl_max", {}, R"(
static inline float fl_max(float a, float b) { return a != a || a > b ? a : b; }
)"},
        {"fl_min", {}, R"(
static inline float fl_min(float a, float b) { return a != a || a < b ? a : b; }
)"},
        {"fl_floor", {}, R"(
static inline float fl_floor(float x) { return __builtin_floorf(x); }
)"},
        {"fl_ceil", {}, R"(
static inline float fl_ceil(float x) { return __builtin_ceilf(x); }
)"},
        {"fl_round", {}, R"(
static inline float fl_round(float x) { return __builtin_rintf(x); } // half to even
)"},
        {"fl_pow2_scale", {"fl_bits", "fl_from_bits"}, R"(
// A power of two s with m s in [1, 4) for m >= 0 (max |x| of a row): var and std compute on x s,
// whose squares cannot overflow, then divide by s exactly (fl_unscale1, fl_unscale2). 1 for inf
// and NaN, 2^127 for 0 and subnormals.
static inline float fl_pow2_scale(float m) {
    unsigned e = fl_bits(m) >> 23;
    unsigned k = e > 254u ? 127u : e == 254u ? 1u : 254u - e;
    return fl_from_bits(k << 23);
}
)"},
        {"fl_unscale1", {}, R"(
// v / s for a power of two s, rounded once (in double, neither the quotient nor 1 / s overflows).
static inline float fl_unscale1(float v, float s) { return (float)((double)v / (double)s); }
)"},
        {"fl_unscale2", {}, R"(
// v / s^2 for a power of two s, rounded once: s^2 itself may be past the float range.
static inline float fl_unscale2(float v, float s) { return (float)((double)v / ((double)s * (double)s)); }
)"},
        {"fl_isnan", {}, R"(
static inline bool fl_isnan(float x) { return x != x; }
)"},
    };
    return fns;
}

} // namespace

std::string kernelMath(const std::vector<std::string>& names) {
    const auto& fns = table();
    std::vector<bool> wanted(fns.size(), false);
    auto index = [&](const std::string& name) {
        auto it = std::find_if(fns.begin(), fns.end(), [&](const Fn& f) { return name == f.name; });
        if (it == fns.end()) throw std::invalid_argument("kernelMath: unknown function '" + name + "'");
        return size_t(it - fns.begin());
    };
    for (const auto& n : names) wanted[index(n)] = true;
    // Dependencies come earlier in the table, so one backward pass closes the set.
    for (size_t i = fns.size(); i-- > 0;)
        if (wanted[i])
            for (const char* d : fns[i].deps) wanted[index(d)] = true;
    std::string out;
    for (size_t i = 0; i < fns.size(); ++i)
        if (wanted[i]) out += fns[i].text;
    return out;
}

const std::vector<std::string>& kernelMathNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& f : table()) v.push_back(f.name);
        return v;
    }();
    return names;
}

} // namespace fl::codegen
