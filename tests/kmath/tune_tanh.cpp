// tune_tanh: tunes the float32 coefficients of fl_tanh's rational form (see fit_coeffs.py, which
// prints the starting point) on its float32 error, which the float64 fit does not see: a random
// search of 1-4 ulp steps on 1-3 coefficients at a time, kept when the maximum relative error over
// every float in [lo, 10.05] drops. Deterministic (fixed seed). Not part of the build:
//   c++ -O2 -std=c++17 -ffp-contract=off tests/kmath/tune_tanh.cpp -o /tmp/tune_tanh
//   /tmp/tune_tanh P1 P2 P3 P4 Q1 Q2 Q3 Q4 [lo [iterations]]   (hex floats; iterations 0: just measure)
// It computes the values fl_tanh in core/codegen/kmath.cpp does (there on x with the clamps at -1
// and 1, here on |x| with the sign copied: the same floats).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

float P[5] = {1.0f}, Q[5] = {1.0f};

float tanhApprox(float x) {
    float a = std::fabs(x);
    a = a > 10.0f ? 10.0f : a;
    float z = a * a;
    float p = std::fma(P[4], z, P[3]);
    p = std::fma(p, z, P[2]);
    p = std::fma(p, z, P[1]);
    p = std::fma(p, z, 1.0f);
    float q = std::fma(Q[4], z, Q[3]);
    q = std::fma(q, z, Q[2]);
    q = std::fma(q, z, Q[1]);
    q = std::fma(q, z, 1.0f);
    float r = a * p / q;
    r = r > 1.0f ? 1.0f : r;
    return std::copysign(r, x);
}

std::vector<float> xs;
std::vector<double> ref;

double maxRel() {
    double m = 0;
    for (size_t i = 0; i < xs.size(); ++i) m = std::fmax(m, std::fabs(tanhApprox(xs[i]) - ref[i]) / ref[i]);
    return m;
}

unsigned bitsOf(float f) {
    unsigned u;
    std::memcpy(&u, &f, 4);
    return u;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 9) {
        std::fprintf(stderr, "usage: tune_tanh P1 P2 P3 P4 Q1 Q2 Q3 Q4 [lo [iterations]]\n");
        return 2;
    }
    for (int i = 1; i <= 4; ++i) P[i] = std::strtof(argv[i], nullptr), Q[i] = std::strtof(argv[4 + i], nullptr);
    float lo = argc > 9 ? std::strtof(argv[9], nullptr) : 2.0f;
    int iterations = argc > 10 ? std::atoi(argv[10]) : 2000;
    for (unsigned u = bitsOf(lo), end = bitsOf(10.05f); u < end; ++u) {
        float x;
        std::memcpy(&x, &u, 4);
        xs.push_back(x);
        ref.push_back(std::tanh(double(x)));
    }
    double best = maxRel();
    std::printf("start: %.4e over %zu floats in [%g, 10.05]\n", best, xs.size(), lo);
    std::mt19937 rng(7);
    for (int it = 0; it < iterations; ++it) {
        float p0[5], q0[5];
        std::memcpy(p0, P, sizeof P);
        std::memcpy(q0, Q, sizeof Q);
        for (int n = 1 + int(rng() % 3); n > 0; --n) {
            int i = 1 + int(rng() % 8);
            float& c = i <= 4 ? P[i] : Q[i - 4];
            for (int s = 1 + int(rng() % 4); s > 0; --s) c = std::nextafter(c, (rng() & 1) ? INFINITY : -INFINITY);
        }
        double e = maxRel();
        if (e < best) {
            best = e;
            std::printf("%d: %.4e\n", it, e);
            std::fflush(stdout);
        } else {
            std::memcpy(P, p0, sizeof P);
            std::memcpy(Q, q0, sizeof Q);
        }
    }
    std::printf("max relative error %.4e\nP %a %a %a %a\nQ %a %a %a %a\n", best, P[1], P[2], P[3], P[4], Q[1], Q[2], Q[3], Q[4]);
}
