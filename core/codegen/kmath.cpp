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
        {"fl_exp", {"fl_bits", "fl_from_bits", "fl_expm1_poly"}, R"(
static inline float fl_exp(float x) {
    // Results below 2^-125 (x < -86.98) are flushed to 0 (an error under 1.8e-38): making a
    // subnormal costs a microcode assist per vector on x86, and softmax over -inf-masked scores
    // would make one for every masked element. Above that, exp(x) = 2 (s + s expm1(r)) with
    // s = 2^(k-1), a normal float for every k in [-125, 128]: one rounding, then an exact
    // doubling that overflows to inf exactly where exp(x) > FLT_MAX.
    bool tiny = x < -86.98f;
    x = x > 89.0f ? 89.0f : x;
    float k = __builtin_rintf(x * 0x1.715476p+0f);
    float r = __builtin_fmaf(k, -0x1.62e4p-1f, x); // exact
    r = __builtin_fmaf(k, -0x1.7f7d1cp-20f, r);
    float s = fl_from_bits((fl_bits(k + 0x1.8p23f) + (126u - 0x4b400000u)) << 23);
    float v = 2.0f * __builtin_fmaf(s, fl_expm1_poly(r), s);
    return tiny ? 0.0f : v;
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
        {"fl_exp_nonpos", {"fl_exp_normal"}, R"(
// exp(x) for x <= 0 (and NaN): softmax's exp(x - max), sigmoid's exp(-|x|). Results below
// 2^-125 (x < -86.98) are 0, as in fl_exp. Correct up to x = 88 (k <= 127), wrong above: never
// call it on positive arguments.
static inline float fl_exp_nonpos(float x) {
    float v = fl_exp_normal(x);
    return x < -86.98f ? 0.0f : v;
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
    return 2.0f * __builtin_fmaf(s, fl_expm1_poly(r), s - 0.5f);
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
    r = x == __builtin_inff() ? x : r;
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
static inline float fl_sigmoid(float x) {
    float e = fl_exp_nonpos(-__builtin_fabsf(x)); // in [0, 1]
    return (x >= 0.0f ? 1.0f : e) / (1.0f + e); // sigmoid(-|x|) = e / (1 + e)
}
)"},
        {"fl_sincos", {"fl_bits", "fl_from_bits", "fl_int_bits"}, R"(
// sin(x) for q = 0, cos(x) for q = 1.
static inline float fl_sincos(float x, unsigned q) {
    float n = __builtin_rintf(x * 0x1.45f306p-1f);
    float r = __builtin_fmaf(n, -0x1.921fb6p+0f, x); // exact
    r = __builtin_fmaf(n, 0x1.777a5cp-25f, r);
    r = __builtin_fmaf(n, 0x1.ee59dap-50f, r);
    r = r > 1.0f ? 1.0f : r; // bounds the result where |x| is too large to reduce
    r = r < -1.0f ? -1.0f : r;
    unsigned quadrant = fl_int_bits(n - 4.0f * __builtin_floorf(0.25f * n)) + q;
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
    return fl_from_bits(fl_bits(v) ^ ((quadrant & 2u) << 30));
}
)"},
        {"fl_sin", {"fl_sincos"}, R"(
static inline float fl_sin(float x) { return fl_sincos(x, 0u); }
)"},
        {"fl_cos", {"fl_sincos"}, R"(
static inline float fl_cos(float x) { return fl_sincos(x, 1u); }
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
// The value, unseen by the optimizer: a reciprocal computed once per row stays one.
static inline float fl_opaque(float x) {
    volatile float v = x;
    return v;
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
