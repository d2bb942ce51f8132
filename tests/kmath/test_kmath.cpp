// test_kmath: compiles the exact text of fl::codegen::kernelMath() the way the JIT's "cc" backend
// does (system c++, and clang++ when present, -O3 -march=native and the kernel flags, -shared
// -fPIC), dlopens it and checks, per compiler:
//   - accuracy against <cmath> float64 over >= 10M inputs per function: max relative error
//     <= 3e-7 where |reference| >= 1e-30, no NaN/inf where the float reference is finite, and the
//     same NaN/inf where it is not;
//   - the max relative difference to LibTorch's float32 eager result: <= 1e-6;
//   - special values (inf, NaN, overflow, underflow, pow's C99 cases, NaN-propagating max/min);
//   - that each function's loop is vectorized (packed ps/pd arithmetic on ymm/zmm in the -S output),
//     when -march=native has AVX2;
// and prints elements/ns per function over 4M floats next to LibTorch on one thread.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <dlfcn.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/codegen/kmath.h"

namespace {

namespace fs = std::filesystem;

const char* kFlags = "-O3 -march=native -fno-math-errno -fno-trapping-math -ffp-contract=off";
constexpr double kMaxRel = 3e-7;      // vs float64, where |reference| >= kRelFloor
constexpr double kMaxTorchRel = 1e-6; // vs LibTorch float32
constexpr double kRelFloor = 1e-30;
constexpr long kPoints = 10'000'000;     // per approximated function
constexpr long kExactPoints = 1'000'000; // per function of one or two IEEE operations (sqrt, floor, ...)
constexpr long kBenchPoints = 4 << 20;
constexpr long kHotPoints = 64 << 10;
constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

int failures = 0;

void fail(const std::string& what) {
    std::printf("FAIL: %s\n", what.c_str());
    ++failures;
}

using Unary = void (*)(const float*, float*, long);
using Binary = void (*)(const float*, const float*, float*, long);
using Predicate = void (*)(const float*, bool*, long);

using Rng = std::mt19937_64;
// Fills x (and y for binary functions) with n inputs.
using Gen = std::function<void(Rng&, long n, std::vector<float>& x, std::vector<float>& y)>;

// One piece of an input set: `share` of the points, uniform on [lo, hi], or uniform over the float
// bit patterns from lo to hi (equally many per binade) with a random sign when `bothSigns`.
struct Piece {
    enum Kind { Uniform, Binades } kind;
    double lo, hi, share;
    bool bothSigns = false;
};

void fillPieces(Rng& rng, long n, std::vector<float>& out, const std::vector<Piece>& pieces) {
    out.resize(n);
    long at = 0;
    for (size_t p = 0; p < pieces.size(); ++p) {
        const Piece& pc = pieces[p];
        long end = p + 1 == pieces.size() ? n : at + long(pc.share * n);
        std::uniform_real_distribution<double> u(pc.lo, pc.hi);
        uint32_t first = std::bit_cast<uint32_t>(float(pc.lo)), span = std::bit_cast<uint32_t>(float(pc.hi)) - first + 1;
        for (; at < end; ++at) {
            if (pc.kind == Piece::Uniform) {
                out[at] = float(u(rng));
            } else {
                uint64_t r = rng();
                uint32_t sign = pc.bothSigns && (r >> 63) ? 0x80000000u : 0u;
                out[at] = std::bit_cast<float>((first + uint32_t(r) % span) | sign);
            }
        }
    }
}

Gen pieces(std::vector<Piece> ps) {
    return [ps](Rng& rng, long n, std::vector<float>& x, std::vector<float>&) { fillPieces(rng, n, x, ps); };
}

struct Special {
    float x, y, expect;
    float tol = 0; // absolute; NaN expected means "is NaN"
};

enum class Ar { Unary, Binary, Predicate };

struct Spec {
    std::string name; // without the fl_ prefix
    Ar arity;
    std::function<double(double, double)> ref; // float64 reference
    // The LibTorch float32 equivalent, written into out.
    std::function<void(at::Tensor& out, const at::Tensor& x, const at::Tensor& y)> torch;
    Gen gen;
    std::vector<Special> specials;
    long points = kPoints;
    // Errors are relative to max(|reference|, xScale |x|): gelu's 0.5 x (1 + erf) is only accurate
    // to a fraction of |x| / 2 for negative x (the sum cancels), in LibTorch as in the float64 form.
    double xScale = 0;
};

double sigmoidRef(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double geluRef(double x) { return x * 0.5 * std::erfc(-x / std::sqrt(2.0)); }
double maxRef(double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b); }
double minRef(double a, double b) { return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b); }

std::vector<Spec> specs() {
    using P = Piece;
    const auto U = P::Uniform;
    const auto L = P::Binades;
    const float fmax = std::numeric_limits<float>::max();
    const float denormMin = std::numeric_limits<float>::denorm_min();
    // Every binade of the float range (subnormals included), both signs, plus [-10, 10].
    Gen everything = pieces({{L, 1e-45, 3e38, 0.9, true}, {U, -10, 10, 0.1}});
    auto un = [](double (*f)(double)) { return [f](double x, double) { return f(x); }; };
    using Out1 = at::Tensor& (*)(at::Tensor&, const at::Tensor&);
    using Out2 = at::Tensor& (*)(at::Tensor&, const at::Tensor&, const at::Tensor&);
    auto t1 = [](Out1 f) { return [f](at::Tensor& o, const at::Tensor& x, const at::Tensor&) { f(o, x); }; };
    auto t2 = [](Out2 f) { return [f](at::Tensor& o, const at::Tensor& x, const at::Tensor& y) { f(o, x, y); }; };
    std::vector<Spec> s = {
        {"exp", Ar::Unary, un(std::exp), t1(at::exp_out),
         pieces({{U, -104, 89, 0.5}, {L, 1e-30, 104, 0.5, true}}),
         // subnormal results below 2^-126, as LibTorch's: exp(-100) is 3.78e-44, exp(-103.972) 2^-149
         {{kInf, 0, kInf}, {-kInf, 0, 0}, {kNaN, 0, kNaN}, {100, 0, kInf}, {-100, 0, 3.7835059e-44f},
          {-104, 0, 0}, {-103.972f, 0, 1.4e-45f}, {-103.9721f, 0, 0}, {0, 0, 1}, {88.72283f, 0, 3.4027985e38f, 1e32f},
          {88.7229f, 0, kInf}, {-86.9f, 0, 1.8189002e-38f, 1e-44f}, {-87.0f, 0, 1.6458115e-38f, 3e-45f},
          {-90.0f, 0, 8.1940126e-40f, 3e-45f}}},
        // softmax's exp(x - max) and sigmoid's exp(-|x|): only x <= 0 (and NaN) is in its domain
        {"exp_nonpos", Ar::Unary, un(std::exp), t1(at::exp_out),
         [](Rng& rng, long n, std::vector<float>& x, std::vector<float>&) {
             fillPieces(rng, n, x, {{U, 0, 104, 0.5}, {L, 1e-30, 104, 0.5}});
             for (float& v : x) v = -v;
         },
         {{-kInf, 0, 0}, {kNaN, 0, kNaN}, {0, 0, 1}, {-0.0f, 0, 1}, {-100, 0, 3.7835059e-44f}, {-104, 0, 0},
          {-103.972f, 0, 1.4e-45f}, {-86.9f, 0, 1.8189002e-38f, 1e-44f}, {-87.0f, 0, 1.6458115e-38f, 3e-45f},
          {-90.0f, 0, 8.1940126e-40f, 3e-45f}, {-1e-30f, 0, 1}}},
        {"expm1", Ar::Unary, un(std::expm1), t1(at::expm1_out),
         pieces({{U, -20, 89, 0.4}, {L, 1e-38, 1, 0.6, true}}),
         {{kInf, 0, kInf}, {-kInf, 0, -1}, {kNaN, 0, kNaN}, {0, 0, 0}, {-0.0f, 0, -0.0f}, {1e-30f, 0, 1e-30f}, {-100, 0, -1}, {100, 0, kInf},
          {88.7f, 0, 3.3259769e38f, 1e32f}}},
        {"log", Ar::Unary, un(std::log), t1(at::log_out),
         pieces({{L, 1e-45, 3e38, 0.5}, {U, 0.5, 2, 0.5}}),
         {{0, 0, -kInf}, {-0.0f, 0, -kInf}, {-1, 0, kNaN}, {-kInf, 0, kNaN}, {kInf, 0, kInf}, {kNaN, 0, kNaN}, {1, 0, 0},
          {denormMin, 0, -103.27893f, 1e-5f}, {fmax, 0, 88.72284f, 1e-5f}}},
        {"log1p", Ar::Unary, un(std::log1p), t1(at::log1p_out),
         pieces({{L, 1e-30, 1, 0.45, true}, {L, 1, 1e38, 0.35}, {U, -1, 1, 0.2}}),
         // LibTorch (Sleef) gives inf above 1e38, and so does fl_log1p: eager's value, not log1p's
         {{-1, 0, -kInf}, {-2, 0, kNaN}, {kInf, 0, kInf}, {kNaN, 0, kNaN}, {0, 0, 0}, {-0.0f, 0, -0.0f}, {1e-30f, 0, 1e-30f},
          {1e38f, 0, 87.498230f, 1e-5f}, {1.0000001e38f, 0, kInf}, {fmax, 0, kInf}, {-0.99999994f, 0, -16.635532f, 2e-6f}}},
        {"tanh", Ar::Unary, un(std::tanh), t1(at::tanh_out),
         pieces({{L, 1e-30, 20, 0.7, true}, {U, -10, 10, 0.3}}),
         {{kInf, 0, 1}, {-kInf, 0, -1}, {20, 0, 1}, {-20, 0, -1}, {kNaN, 0, kNaN}, {0, 0, 0}, {1e-30f, 0, 1e-30f},
          {1e-40f, 0, 1e-40f}}},
        {"erf", Ar::Unary, un(std::erf), t1(at::erf_out),
         pieces({{L, 1e-30, 6, 0.7, true}, {U, -5, 5, 0.3}}),
         {{kInf, 0, 1}, {-kInf, 0, -1}, {10, 0, 1}, {-10, 0, -1}, {kNaN, 0, kNaN}, {0, 0, 0},
          {1e-30f, 0, 1.1283792e-30f, 1e-36f}}},
        {"gelu", Ar::Unary, un(geluRef), [](at::Tensor& o, const at::Tensor& x, const at::Tensor&) { o.copy_(at::gelu(x)); },
         pieces({{U, -8, 8, 0.6}, {L, 1e-30, 1e6, 0.4, true}}),
         {{kInf, 0, kInf}, {-kInf, 0, kNaN}, {kNaN, 0, kNaN}, {0, 0, 0}, {-10, 0, 0}, {10, 0, 10},
          {1e-30f, 0, 5e-31f, 1e-37f}, {-3, 0, -0.0040496941f, 1.2e-7f}}, // Phi to 4e-8 absolute
         kPoints, 0.5},
        {"sigmoid", Ar::Unary, un(sigmoidRef), t1(at::sigmoid_out),
         pieces({{U, -100, 100, 0.5}, {L, 1e-10, 100, 0.5, true}}),
         {{kInf, 0, 1}, {-kInf, 0, 0}, {kNaN, 0, kNaN}, {100, 0, 1}, {-100, 0, 0}, {0, 0, 0.5f},
          // LibTorch's 1 / (1 + exp(-x)): subnormal down to -88.7228317, then 0 where exp(-x) overflows
          {-88.7228317f, 0, 2.9387583e-39f, 3e-45f}, {-88.7228394f, 0, 0}, {-87.4f, 0, 1.1032187e-38f, 3e-45f}}},
        // every binade up to FLT_MAX: Cody-Waite below 2^20, Payne-Hanek above
        {"sin", Ar::Unary, un(std::sin), t1(at::sin_out),
         pieces({{U, -10, 10, 0.2}, {L, 1e-30, 2097152, 0.4, true}, {L, 2097152, 3.4e38, 0.4, true}}),
         {{kInf, 0, kNaN}, {-kInf, 0, kNaN}, {kNaN, 0, kNaN}, {0, 0, 0}, {-0.0f, 0, -0.0f}, {1e-30f, 0, 1e-30f}, {1.5707964f, 0, 1},
          {1e7f, 0, 0.420547793f, 1e-7f}, {-1e7f, 0, -0.420547793f, 1e-7f}, {3e38f, 0, 0.874904888f, 1e-7f},
          {-3e38f, 0, -0.874904888f, 1e-7f}, {1e30f, 0, -0.791163445f, 1e-7f}, {0x1p20f, 0, 0.330493152f, 1e-7f}}},
        {"cos", Ar::Unary, un(std::cos), t1(at::cos_out),
         pieces({{U, -10, 10, 0.2}, {L, 1e-30, 2097152, 0.4, true}, {L, 2097152, 3.4e38, 0.4, true}}),
         {{kInf, 0, kNaN}, {-kInf, 0, kNaN}, {kNaN, 0, kNaN}, {0, 0, 1}, {-0.0f, 0, 1}, {3.1415927f, 0, -1},
          {1e7f, 0, -0.907270386f, 1e-7f}, {3e38f, 0, -0.484294784f, 1e-7f}, {-3e38f, 0, -0.484294784f, 1e-7f},
          {1e30f, 0, -0.61160481f, 1e-7f}, {0x1p20f, 0, 0.943808377f, 1e-7f}}},
        {"pow", Ar::Binary, [](double x, double y) { return std::pow(x, y); },
         t2(at::pow_out),
         [](Rng& rng, long n, std::vector<float>& x, std::vector<float>& y) {
             // (|x|, y) pieces: moderate, near 1 with large |y|, every positive float (overflow,
             // underflow, subnormal x), then negative x with integer y.
             const std::vector<std::pair<Piece, Piece>> parts = {{{L, 1e-6, 1e6, 0.3}, {U, -6, 6, 0}},
                                                                 {{U, 0.5, 2, 0.2}, {U, -100, 100, 0}},
                                                                 {{L, 1e-45, 3e38, 0.2}, {U, -4, 4, 0}},
                                                                 {{L, 1e-4, 1e4, 0.3}, {U, -12, 12, 0}}};
             std::vector<float> px, py;
             for (size_t p = 0; p < parts.size(); ++p) {
                 long m = p + 1 == parts.size() ? n - long(x.size()) : long(parts[p].first.share * n);
                 fillPieces(rng, m, px, {parts[p].first});
                 fillPieces(rng, m, py, {parts[p].second});
                 if (p + 1 == parts.size())
                     for (long i = 0; i < m; ++i) {
                         px[i] = -px[i];
                         py[i] = std::nearbyint(py[i]);
                     }
                 x.insert(x.end(), px.begin(), px.end());
                 y.insert(y.end(), py.begin(), py.end());
             }
         },
         {{-2, 3, -8}, {-2, 2, 4}, {2, 0.5f, 1.4142135f, 1e-7f}, {kNaN, 0, 1}, {0, 0, 1}, {kInf, 0, 1}, {1, kNaN, 1},
          {-1, kInf, 1}, {-1, -kInf, 1}, {2, kNaN, kNaN}, {kNaN, 1, kNaN}, {-8, 1.0f / 3, kNaN}, {0, -1, kInf},
          {0, 2, 0}, {-0.0f, -1, -kInf}, {0, -0.5f, kInf}, {2, 128, kInf}, {2, -149, denormMin}, {2, -151, 0},
          {-kInf, 3, -kInf}, {-kInf, 2, kInf}, {-kInf, 0.5f, kInf}, {-kInf, -1, 0}, {kInf, -1, 0}, {0.5f, kInf, 0},
          {0.5f, -kInf, kInf}, {2, kInf, kInf}, {2, -kInf, 0}, {-2, 1e10f, kInf}, {-1, 1e10f, 1}, {-1, 3, -1},
          {10, 38, 1e38f, 1e32f}, {10, 39, kInf}, {denormMin, 1, denormMin}, {-3, -3, -0.037037037f, 1e-8f}}},
        {"sqrt", Ar::Unary, un(std::sqrt), t1(at::sqrt_out), everything,
         {{-1, 0, kNaN}, {4, 0, 2}, {kInf, 0, kInf}, {0, 0, 0}, {kNaN, 0, kNaN}}, kExactPoints},
        {"rsqrt", Ar::Unary, [](double x, double) { return 1.0 / std::sqrt(x); }, t1(at::rsqrt_out), everything,
         {{0, 0, kInf}, {4, 0, 0.5f}, {-1, 0, kNaN}, {kInf, 0, 0}, {kNaN, 0, kNaN}}, kExactPoints},
        {"abs", Ar::Unary, un(std::fabs), t1(at::abs_out), everything,
         {{-3, 0, 3}, {-kInf, 0, kInf}, {kNaN, 0, kNaN}}, kExactPoints},
        {"max", Ar::Binary, maxRef, t2(at::maximum_out),
         [everything](Rng& rng, long n, std::vector<float>& x, std::vector<float>& y) {
             everything(rng, n, x, y);
             everything(rng, n, y, x);
         },
         {{kNaN, 1, kNaN}, {1, kNaN, kNaN}, {1, 2, 2}, {-kInf, 3, 3}, {kInf, kNaN, kNaN}}, kExactPoints},
        {"min", Ar::Binary, minRef, t2(at::minimum_out),
         [everything](Rng& rng, long n, std::vector<float>& x, std::vector<float>& y) {
             everything(rng, n, x, y);
             everything(rng, n, y, x);
         },
         {{kNaN, 1, kNaN}, {1, kNaN, kNaN}, {1, 2, 1}, {kInf, 3, 3}, {-kInf, kNaN, kNaN}}, kExactPoints},
        {"floor", Ar::Unary, un(std::floor), t1(at::floor_out), everything,
         {{-0.5f, 0, -1}, {1.5f, 0, 1}, {kInf, 0, kInf}, {kNaN, 0, kNaN}}, kExactPoints},
        {"ceil", Ar::Unary, un(std::ceil), t1(at::ceil_out), everything,
         {{-0.5f, 0, 0}, {1.2f, 0, 2}, {-kInf, 0, -kInf}}, kExactPoints},
        {"round", Ar::Unary, un(std::nearbyint), t1(at::round_out), everything,
         {{0.5f, 0, 0}, {1.5f, 0, 2}, {2.5f, 0, 2}, {-0.5f, 0, 0}, {-1.5f, 0, -2}, {3.7f, 0, 4}, {8388609, 0, 8388609},
          {kNaN, 0, kNaN}, {kInf, 0, kInf}}, kExactPoints},
        {"isnan", Ar::Predicate, [](double x, double) { return double(std::isnan(x)); },
         [](at::Tensor& o, const at::Tensor& x, const at::Tensor&) { o.copy_(at::isnan(x)); }, everything,
         {{kNaN, 0, 1}, {kInf, 0, 0}, {1, 0, 0}}, kExactPoints},
    };
    return s;
}

std::string driverSource(const std::vector<Spec>& fns) {
    std::vector<std::string> names;
    for (const auto& f : fns) names.push_back("fl_" + f.name);
    std::string src = fl::codegen::kernelMath(names);
    for (const auto& f : fns) {
        std::string params = f.arity == Ar::Binary      ? "const float* a, const float* b, float* o"
                             : f.arity == Ar::Predicate ? "const float* a, bool* o"
                                                        : "const float* a, float* o";
        std::string args = f.arity == Ar::Binary ? "a[i], b[i]" : "a[i]";
        src += "extern \"C\" void k_" + f.name + "(" + params + ", long n) {\n    for (long i = 0; i < n; ++i) o[i] = fl_" +
               f.name + "(" + args + ");\n}\n";
    }
    return src;
}

bool run(const std::string& cmd) { return std::system(cmd.c_str()) == 0; }

std::string readFile(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string findClang() {
    for (const char* c : {"clang++-15", "clang++"})
        if (run(std::string("command -v ") + c + " >/dev/null 2>&1")) return c;
    return "";
}

// The vector registers a function's packed float arithmetic uses ("zmm", "ymm"), or "" if none (or
// no such function): packed ps/pd instructions other than moves, broadcasts, shuffles and blends.
std::string vectorWidth(const std::string& asmText, const std::string& fn) {
    size_t at = asmText.find("\n" + fn + ":");
    if (at == std::string::npos) return "";
    size_t end = asmText.find(".cfi_endproc", at);
    std::string body = asmText.substr(at, end == std::string::npos ? std::string::npos : end - at);
    static const std::regex packed(
        R"(\n\s+(v(?!mov|broadcast|perm|shuf|unpck|extract|insert|blend|zero)[a-z0-9]*p[sd])\s[^\n]*%([yz]mm))");
    std::string width;
    for (std::sregex_iterator it(body.begin(), body.end(), packed), e; it != e; ++it)
        if (width != "zmm") width = (*it)[2];
    return width;
}

struct Lib {
    std::string compiler, version;
    void* handle = nullptr;
    std::string asmText;
    bool avx2 = false;
    mutable std::map<std::string, void*> symbols;
    template <class F> F get(const std::string& fn) const {
        auto [it, added] = symbols.try_emplace(fn);
        if (added) it->second = dlsym(handle, ("k_" + fn).c_str());
        return reinterpret_cast<F>(it->second);
    }
};

bool buildLib(const std::string& compiler, const fs::path& dir, const fs::path& src, Lib& lib) {
    lib.compiler = compiler;
    fs::path so = dir / (compiler + ".so"), s = dir / (compiler + ".s"), log = dir / (compiler + ".log");
    std::string base = compiler + " " + kFlags + " " + src.string();
    if (!run(base + " -shared -fPIC -o " + so.string() + " 2>" + log.string()) ||
        !run(base + " -S -o " + s.string() + " 2>>" + log.string())) {
        fail(compiler + " could not compile the kernel math:\n" + readFile(log));
        return false;
    }
    lib.asmText = readFile(s);
    fs::path ver = dir / (compiler + ".ver");
    run(compiler + " --version 2>/dev/null | head -n1 >" + ver.string());
    lib.version = readFile(ver);
    lib.version.erase(lib.version.find_last_not_of("\n") + 1);
    fs::path macros = dir / (compiler + ".macros");
    run(compiler + " -march=native -dM -E -x c++ /dev/null >" + macros.string());
    lib.avx2 = readFile(macros).find("__AVX2__") != std::string::npos;
    lib.handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib.handle) fail(std::string("dlopen: ") + dlerror());
    return lib.handle != nullptr;
}

// f's kernel over n elements; a predicate writes to flags instead of out.
void runKernel(const Lib& lib, const Spec& f, const float* x, const float* y, float* out, bool* flags, long n) {
    switch (f.arity) {
    case Ar::Unary: lib.get<Unary>(f.name)(x, out, n); break;
    case Ar::Binary: lib.get<Binary>(f.name)(x, y, out, n); break;
    case Ar::Predicate: lib.get<Predicate>(f.name)(x, flags, n); break;
    }
}

// f's kernel over x (and y), predicates as 0/1.
void call(const Lib& lib, const Spec& f, const std::vector<float>& x, const std::vector<float>& y, std::vector<float>& out) {
    long n = long(x.size());
    out.resize(n);
    std::unique_ptr<bool[]> flags(new bool[n]);
    runKernel(lib, f, x.data(), y.data(), out.data(), flags.get(), n);
    if (f.arity == Ar::Predicate)
        for (long i = 0; i < n; ++i) out[i] = flags[i];
}

// LibTorch's float32 result for f over n elements of x (and y), written into out.
void torchInto(const Spec& f, float* x, float* y, float* out, long n) {
    at::Tensor tx = at::from_blob(x, {n});
    at::Tensor ty = f.arity == Ar::Binary ? at::from_blob(y, {n}) : tx;
    at::Tensor to = at::from_blob(out, {n});
    f.torch(to, tx, ty);
}

// The float32 ulp in ref's binade (2^-149 below the normal range).
double ulpOf(double ref) {
    int64_t e = int64_t(std::bit_cast<uint64_t>(ref) >> 52 & 0x7ff) - 1023;
    return std::bit_cast<double>(uint64_t(std::max<int64_t>(e - 23, -149) + 1023) << 52);
}

struct Accuracy {
    double maxRel = 0, maxUlp = 0, worstX = 0, worstY = 0, maxTorchRel = 0;
    long bad = 0; // NaN/inf disagreements with the float64 reference
    std::string firstBad;
};

// Inputs where LibTorch's float32 result is NaN/inf but the float64 reference rounds to a finite float.
long torchMisses(const std::vector<double>& ref, const std::vector<float>& t) {
    long n = 0;
    for (size_t i = 0; i < ref.size(); ++i) n += std::isfinite(float(ref[i])) && !std::isfinite(t[i]);
    return n;
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

// "fl_name(x)" or "fl_name(x, y)".
std::string callText(const Spec& f, float x, float y) {
    return "fl_" + f.name + "(" + num(x) + (f.arity == Ar::Binary ? ", " + num(y) : "") + ")";
}

Accuracy measure(const Spec& f, const std::vector<float>& x, const std::vector<float>& y, const std::vector<double>& ref,
                 const std::vector<float>& out, const std::vector<float>& t) {
    Accuracy a;
    for (size_t i = 0; i < x.size(); ++i) {
        double r = ref[i];
        float rf = float(r), o = out[i];
        bool ok = std::isnan(r) ? std::isnan(o) : std::isinf(rf) ? o == rf : std::isfinite(o);
        if (!ok) {
            if (a.bad++ == 0)
                a.firstBad = callText(f, x[i], y.empty() ? 0.f : y[i]) + " = " + num(o) + ", float64 reference " + num(r);
            continue;
        }
        if (!std::isfinite(rf)) continue;
        double err = std::fabs(double(o) - r);
        double scale = std::max(std::fabs(r), f.xScale * std::fabs(double(x[i])));
        if (scale >= kRelFloor) {
            double rel = err / scale;
            if (rel > a.maxRel) {
                a.maxRel = rel;
                a.worstX = x[i];
                a.worstY = y.empty() ? 0 : y[i];
            }
            a.maxUlp = std::max(a.maxUlp, err / ulpOf(scale));
        }
        float ti = t[i]; // not compared where LibTorch itself is NaN/inf (see torchMisses)
        double tscale = std::max(std::fabs(double(ti)), f.xScale * std::fabs(double(x[i])));
        if (std::isfinite(ti) && tscale >= kRelFloor)
            a.maxTorchRel = std::max(a.maxTorchRel, std::fabs(double(o) - ti) / tscale);
    }
    return a;
}

void checkSpecials(const Lib& lib, const Spec& f) {
    std::vector<float> x, y, out;
    for (const auto& s : f.specials) {
        x.push_back(s.x);
        y.push_back(s.y);
    }
    call(lib, f, x, y, out);
    for (size_t i = 0; i < f.specials.size(); ++i) {
        const Special& s = f.specials[i];
        bool ok = std::isnan(s.expect) ? std::isnan(out[i])
                                       : out[i] == s.expect || std::fabs(double(out[i]) - s.expect) <= s.tol;
        if (s.expect == 0 && std::signbit(s.expect) && !std::signbit(out[i])) ok = false; // -0.0 expected: the sign too
        if (!ok) fail("[" + lib.compiler + "] " + callText(f, s.x, s.y) + " = " + num(out[i]) + ", expected " + num(s.expect));
    }
}

// Elements per ns of run(size), called on the first `size` elements until kBenchPoints are done;
// best of 5.
template <class F> double rate(long size, F&& run) {
    double best = 1e30;
    for (int rep = 0; rep < 5; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        for (long done = 0; done < kBenchPoints; done += size) run(size);
        best = std::min(best, std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count());
    }
    return kBenchPoints / best;
}

void checkText(const std::vector<Spec>& fns) {
    const auto& names = fl::codegen::kernelMathNames();
    for (const auto& f : fns)
        if (std::find(names.begin(), names.end(), "fl_" + f.name) == names.end())
            fail("kernelMathNames() lacks fl_" + f.name);
    std::string exp = fl::codegen::kernelMath({"fl_exp"});
    for (const char* need : {"fl_from_bits", "fl_expm1_poly", "fl_bits"})
        if (exp.find(need) == std::string::npos) fail(std::string("kernelMath({fl_exp}) lacks its helper ") + need);
    if (exp.find("fl_sin") != std::string::npos) fail("kernelMath({fl_exp}) emits fl_sin");
    if (exp != fl::codegen::kernelMath({"fl_exp", "fl_exp"})) fail("kernelMath is not idempotent in its names");
    if (fl::codegen::kernelMath({"fl_cos", "fl_sin"}) != fl::codegen::kernelMath({"fl_sin", "fl_cos"}))
        fail("kernelMath order depends on the request");
    if (fl::codegen::kernelMath(names).find("#include") != std::string::npos) fail("kernel math text includes a header");
    try {
        fl::codegen::kernelMath({"fl_nope"});
        fail("kernelMath accepted an unknown name");
    } catch (const std::invalid_argument&) {
    }
}

} // namespace

int main() {
    at::set_num_threads(1);
    const std::vector<Spec> fns = specs();
    checkText(fns);

    std::string tmpl = (fs::temp_directory_path() / "kmath-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) {
        fail("mkdtemp " + tmpl);
        return 1;
    }
    fs::path dir = tmpl;
    fs::path src = dir / "kernels.cpp";
    std::ofstream(src) << driverSource(fns);

    std::vector<std::string> compilers = {"c++"};
    if (std::string clang = findClang(); !clang.empty()) compilers.push_back(clang);
    else std::printf("note: no clang++ found; checking c++ only\n");
    std::vector<Lib> libs(compilers.size());
    for (size_t c = 0; c < compilers.size(); ++c)
        if (!buildLib(compilers[c], dir, src, libs[c])) return 1;

    std::printf("kernel flags: %s\n", kFlags);
    for (const auto& lib : libs) std::printf("%s: %s\n", lib.compiler.c_str(), lib.version.c_str());
    std::printf("\naccuracy over %ld points per function (%ld for exact ones); relative error where |float64 reference| >= %g\n",
                kPoints, kExactPoints, kRelFloor);
    std::printf("%-10s %-10s %12s %9s %28s %14s %6s\n", "fn", "compiler", "max rel", "max ulp", "worst input", "vs torch f32", "vec");

    Rng rng(20240601);
    std::vector<float> x, y, out, torchOut;
    std::vector<double> ref;
    for (const auto& f : fns) {
        x.clear();
        y.clear();
        f.gen(rng, f.points, x, y);
        ref.resize(x.size());
        for (size_t i = 0; i < x.size(); ++i) ref[i] = f.ref(x[i], y.empty() ? 0.0 : y[i]);
        torchOut.resize(x.size());
        torchInto(f, x.data(), y.data(), torchOut.data(), long(x.size()));
        if (long m = torchMisses(ref, torchOut))
            std::printf("note: LibTorch float32 gives NaN/inf for %ld inputs of %s where the result is finite\n", m,
                        f.name.c_str());
        for (const auto& lib : libs) {
            call(lib, f, x, y, out);
            Accuracy a = measure(f, x, y, ref, out, torchOut);
            std::string vec = vectorWidth(lib.asmText, "k_" + f.name);
            std::string worst = num(a.worstX) + (f.arity == Ar::Binary ? ", " + num(a.worstY) : "");
            std::printf("%-10s %-10s %12.3e %9.2f %28s %14.3e %6s\n", f.name.c_str(), lib.compiler.c_str(), a.maxRel,
                        a.maxUlp, worst.c_str(), a.maxTorchRel, vec.empty() ? "NO" : vec.c_str());
            std::string tag = "[" + lib.compiler + "] fl_" + f.name;
            if (a.bad) fail(tag + ": " + std::to_string(a.bad) + " NaN/inf disagreements with float64, first: " + a.firstBad);
            if (a.maxRel > kMaxRel) fail(tag + ": max relative error " + num(a.maxRel));
            if (a.maxTorchRel > kMaxTorchRel)
                fail(tag + ": max relative difference to LibTorch " + num(a.maxTorchRel));
            if (lib.avx2 && vec.empty()) fail(tag + ": loop not vectorized");
            checkSpecials(lib, f);
        }
    }

    std::printf("\nthroughput, elements/ns, one thread, best of 5: streaming %ld floats (memory-bound for the cheap\n"
                "functions), and hot: the first %ld floats (in L2) again and again\n%-10s",
                kBenchPoints, kHotPoints, "fn");
    for (const char* kind : {"", " hot"}) {
        for (const auto& lib : libs) std::printf(" %14s", (lib.compiler + kind).c_str());
        std::printf(" %14s", (std::string("libtorch") + kind).c_str());
    }
    std::printf("\n");
    std::vector<float> bx, by, bo(kBenchPoints);
    std::unique_ptr<bool[]> flags(new bool[kBenchPoints]);
    fillPieces(rng, kBenchPoints, bx, {{Piece::Uniform, -10, 10, 1}});
    fillPieces(rng, kBenchPoints, by, {{Piece::Uniform, -4, 4, 1}});
    std::vector<float> pos(bx.size());
    for (size_t i = 0; i < bx.size(); ++i) pos[i] = std::fabs(bx[i]) + 0.01f;
    for (const auto& f : fns) {
        bool positive = f.name == "log" || f.name == "sqrt" || f.name == "rsqrt" || f.name == "pow";
        float* in = positive ? pos.data() : bx.data();
        std::printf("%-10s", f.name.c_str());
        for (long size : {kBenchPoints, kHotPoints}) {
            for (const auto& lib : libs)
                std::printf(" %14.3f",
                            rate(size, [&](long n) { runKernel(lib, f, in, by.data(), bo.data(), flags.get(), n); }));
            std::printf(" %14.3f", rate(size, [&](long n) { torchInto(f, in, by.data(), bo.data(), n); }));
        }
        std::printf("\n");
    }

    for (auto& lib : libs) dlclose(lib.handle);
    fs::remove_all(dir);
    std::printf("\n%s (%d failure%s)\n", failures ? "FAILED" : "OK", failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
