#include "core/script/bigint.h"

#include <algorithm>
#include <cmath>

namespace fl::script {

void BigInt::trim() {
    while (!mag_.empty() && mag_.back() == 0) mag_.pop_back();
    if (mag_.empty()) neg_ = false;
}

BigInt BigInt::fromInt(int64_t v) {
    BigInt r;
    r.neg_ = v < 0;
    uint64_t m = v < 0 ? uint64_t(-(v + 1)) + 1 : uint64_t(v);
    while (m) {
        r.mag_.push_back(uint32_t(m));
        m >>= 32;
    }
    return r;
}

bool BigInt::fromDouble(double d, BigInt& out) {
    if (!std::isfinite(d)) return false;
    d = std::trunc(d);
    bool neg = d < 0;
    double a = std::fabs(d);
    out = BigInt();
    if (a == 0) return true;
    int exp = 0;
    double frac = std::frexp(a, &exp); // a = frac * 2^exp, frac in [0.5, 1)
    uint64_t mant = uint64_t(std::ldexp(frac, 53)); // exact: doubles carry 53 bits
    int shift = exp - 53;
    out = shift >= 0 ? fromInt(int64_t(mant)).shiftedLeft(uint64_t(shift)) : fromInt(int64_t(mant >> (-shift)));
    if (neg && !out.isZero()) out.neg_ = true;
    return true;
}

bool BigInt::fromDecimal(const std::string& text, BigInt& out) {
    out = BigInt();
    size_t i = 0;
    bool neg = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) neg = text[i++] == '-';
    bool any = false;
    BigInt ten = fromInt(10);
    for (; i < text.size(); ++i) {
        char c = text[i];
        if (c == '_') continue;
        if (c < '0' || c > '9') return false;
        out = out * ten + fromInt(c - '0');
        any = true;
    }
    if (neg && !out.isZero()) out.neg_ = true;
    return any;
}

bool BigInt::toInt64(int64_t& out) const {
    if (mag_.size() > 2) return false;
    uint64_t m = 0;
    for (size_t i = mag_.size(); i-- > 0;) m = (m << 32) | mag_[i];
    if (!neg_) {
        if (m > uint64_t(INT64_MAX)) return false;
        out = int64_t(m);
        return true;
    }
    if (m > uint64_t(INT64_MAX) + 1) return false;
    out = m == uint64_t(INT64_MAX) + 1 ? INT64_MIN : -int64_t(m);
    return true;
}

double BigInt::toDouble() const {
    double r = 0;
    for (size_t i = mag_.size(); i-- > 0;) r = r * 4294967296.0 + double(mag_[i]);
    return neg_ ? -r : r;
}

size_t BigInt::bitLength() const {
    if (mag_.empty()) return 0;
    uint32_t top = mag_.back();
    size_t bits = 0;
    while (top) { ++bits; top >>= 1; }
    return (mag_.size() - 1) * 32 + bits;
}

uint64_t BigInt::magnitudeMod(uint64_t m) const {
    unsigned __int128 r = 0;
    for (size_t i = mag_.size(); i-- > 0;) r = ((r << 32) | mag_[i]) % m;
    return uint64_t(r);
}

std::string BigInt::toDecimal() const {
    if (mag_.empty()) return "0";
    std::vector<uint32_t> cur = mag_;
    std::string digits;
    while (!cur.empty()) {
        // divide by 10^9, collect the remainder
        uint64_t rem = 0;
        for (size_t i = cur.size(); i-- > 0;) {
            uint64_t acc = (rem << 32) | cur[i];
            cur[i] = uint32_t(acc / 1000000000u);
            rem = acc % 1000000000u;
        }
        while (!cur.empty() && cur.back() == 0) cur.pop_back();
        for (int k = 0; k < 9; ++k) {
            digits.push_back(char('0' + rem % 10));
            rem /= 10;
            if (cur.empty() && rem == 0) break;
        }
    }
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    if (neg_) digits.push_back('-');
    std::reverse(digits.begin(), digits.end());
    return digits;
}

int BigInt::compareMag(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    for (size_t i = a.size(); i-- > 0;)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

int BigInt::compare(const BigInt& a, const BigInt& b) {
    if (a.neg_ != b.neg_) return a.neg_ ? -1 : 1;
    int c = compareMag(a.mag_, b.mag_);
    return a.neg_ ? -c : c;
}

std::vector<uint32_t> BigInt::addMag(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    std::vector<uint32_t> r(std::max(a.size(), b.size()) + 1, 0);
    uint64_t carry = 0;
    for (size_t i = 0; i < r.size(); ++i) {
        uint64_t s = carry + (i < a.size() ? a[i] : 0) + (i < b.size() ? b[i] : 0);
        r[i] = uint32_t(s);
        carry = s >> 32;
    }
    return r;
}

std::vector<uint32_t> BigInt::subMag(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    std::vector<uint32_t> r(a.size(), 0);
    int64_t borrow = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        int64_t d = int64_t(a[i]) - borrow - (i < b.size() ? int64_t(b[i]) : 0);
        borrow = d < 0 ? 1 : 0;
        r[i] = uint32_t(d + (borrow << 32));
    }
    return r;
}

BigInt operator+(const BigInt& a, const BigInt& b) {
    BigInt r;
    if (a.neg_ == b.neg_) {
        r.mag_ = BigInt::addMag(a.mag_, b.mag_);
        r.neg_ = a.neg_;
    } else if (BigInt::compareMag(a.mag_, b.mag_) >= 0) {
        r.mag_ = BigInt::subMag(a.mag_, b.mag_);
        r.neg_ = a.neg_;
    } else {
        r.mag_ = BigInt::subMag(b.mag_, a.mag_);
        r.neg_ = b.neg_;
    }
    r.trim();
    return r;
}

BigInt operator-(const BigInt& a, const BigInt& b) { return a + (-b); }

namespace {
thread_local BigInt::Poll tlPoll = nullptr;
thread_local void* tlPollArg = nullptr;
} // namespace

void BigInt::setPoll(Poll fn, void* arg) {
    tlPoll = fn;
    tlPollArg = arg;
}

BigInt operator*(const BigInt& a, const BigInt& b) {
    BigInt r;
    if (a.isZero() || b.isZero()) return r;
    r.mag_.assign(a.mag_.size() + b.mag_.size(), 0);
    const bool longRun = tlPoll && b.mag_.size() >= 1024;
    for (size_t i = 0; i < a.mag_.size(); ++i) {
        if (longRun && (i & 63) == 0) tlPoll(tlPollArg); // every 64 x (at least 1024) limb products
        uint64_t carry = 0;
        for (size_t j = 0; j < b.mag_.size(); ++j) {
            uint64_t cur = r.mag_[i + j] + uint64_t(a.mag_[i]) * b.mag_[j] + carry;
            r.mag_[i + j] = uint32_t(cur);
            carry = cur >> 32;
        }
        size_t k = i + b.mag_.size();
        while (carry) {
            uint64_t cur = r.mag_[k] + carry;
            r.mag_[k++] = uint32_t(cur);
            carry = cur >> 32;
        }
    }
    r.neg_ = a.neg_ != b.neg_;
    r.trim();
    return r;
}

// Knuth's algorithm D on base 2^32 magnitudes.
void BigInt::divModMag(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, std::vector<uint32_t>& q, std::vector<uint32_t>& r) {
    if (compareMag(a, b) < 0) { q.clear(); r = a; return; }
    if (b.size() == 1) {
        q.assign(a.size(), 0);
        uint64_t rem = 0;
        for (size_t i = a.size(); i-- > 0;) {
            uint64_t acc = (rem << 32) | a[i];
            q[i] = uint32_t(acc / b[0]);
            rem = acc % b[0];
        }
        r.clear();
        if (rem) r.push_back(uint32_t(rem));
        while (!q.empty() && q.back() == 0) q.pop_back();
        return;
    }
    int s = __builtin_clz(b.back());
    auto shl = [s](const std::vector<uint32_t>& x, size_t extra) {
        std::vector<uint32_t> y(x.size() + extra, 0);
        for (size_t i = 0; i < x.size(); ++i) {
            uint64_t v = uint64_t(x[i]) << s;
            y[i] |= uint32_t(v);
            if (i + 1 < y.size()) y[i + 1] |= uint32_t(v >> 32);
        }
        return y;
    };
    std::vector<uint32_t> v = shl(b, 0), u = shl(a, 1);
    size_t n = v.size(), m = a.size() - n;
    q.assign(m + 1, 0);
    for (size_t j = m + 1; j-- > 0;) {
        uint64_t num = (uint64_t(u[j + n]) << 32) | u[j + n - 1];
        uint64_t qhat = num / v[n - 1], rhat = num % v[n - 1];
        while (qhat >= (1ULL << 32) || qhat * v[n - 2] > ((rhat << 32) | u[j + n - 2])) {
            --qhat;
            rhat += v[n - 1];
            if (rhat >= (1ULL << 32)) break;
        }
        int64_t borrow = 0;
        uint64_t carry = 0;
        for (size_t i = 0; i < n; ++i) {
            uint64_t p = qhat * v[i] + carry;
            carry = p >> 32;
            int64_t t = int64_t(u[i + j]) - borrow - int64_t(uint32_t(p));
            u[i + j] = uint32_t(t);
            borrow = t < 0 ? 1 : 0;
        }
        int64_t t = int64_t(u[j + n]) - borrow - int64_t(carry);
        u[j + n] = uint32_t(t);
        if (t < 0) { // added back: qhat was one too large
            --qhat;
            uint64_t c = 0;
            for (size_t i = 0; i < n; ++i) {
                uint64_t sum = uint64_t(u[i + j]) + v[i] + c;
                u[i + j] = uint32_t(sum);
                c = sum >> 32;
            }
            u[j + n] = uint32_t(uint64_t(u[j + n]) + c);
        }
        q[j] = uint32_t(qhat);
    }
    while (!q.empty() && q.back() == 0) q.pop_back();
    r.assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
        uint64_t lo = u[i] >> s;
        uint64_t hi = (s && i + 1 < u.size()) ? (uint64_t(u[i + 1]) << (32 - s)) & 0xffffffffULL : 0;
        r[i] = uint32_t(lo | hi);
    }
    while (!r.empty() && r.back() == 0) r.pop_back();
}

void BigInt::floorDivMod(const BigInt& a, const BigInt& b, BigInt& q, BigInt& r) {
    std::vector<uint32_t> qm, rm;
    divModMag(a.mag_, b.mag_, qm, rm);
    q = BigInt();
    q.mag_ = qm;
    q.neg_ = a.neg_ != b.neg_;
    q.trim();
    r = BigInt();
    r.mag_ = rm;
    r.neg_ = a.neg_;
    r.trim();
    // truncated -> floored: adjust when signs differ and the remainder is nonzero
    if (!r.isZero() && (r.neg_ != b.neg_)) {
        q = q - fromInt(1);
        r = r + b;
    }
}

BigInt BigInt::pow(const BigInt& base, uint64_t exp) {
    // a power of two to a power is a shift (2 ** 787782 is one allocation, not twenty squarings)
    if (!base.isZero() && !base.neg_) {
        size_t top = base.mag_.size() - 1;
        bool single = (base.mag_[top] & (base.mag_[top] - 1)) == 0;
        for (size_t i = 0; single && i < top; ++i) single = base.mag_[i] == 0;
        if (single) {
            uint64_t bit = uint64_t(top) * 32 + uint64_t(__builtin_ctz(base.mag_[top]));
            if (bit == 0 || exp <= UINT64_MAX / bit) return fromInt(1).shiftedLeft(bit * exp);
        }
    }
    BigInt result = fromInt(1), b = base;
    while (exp) {
        if (exp & 1) result = result * b;
        exp >>= 1;
        if (exp) b = b * b;
    }
    return result;
}

// Two's complement in n limbs of a value whose magnitude fits in n - 1: the limbs of |x|, or for
// a negative x those of |x| - 1 inverted (so the top limb carries the sign).
static std::vector<uint32_t> twosComplement(bool neg, const std::vector<uint32_t>& mag, size_t n) {
    std::vector<uint32_t> out(n, 0);
    uint64_t borrow = neg ? 1 : 0;
    for (size_t i = 0; i < n; ++i) {
        uint64_t limb = i < mag.size() ? mag[i] : 0;
        if (neg) {
            uint64_t d = limb - borrow; // |x| - 1, limb by limb
            borrow = limb < borrow ? 1 : 0;
            out[i] = ~uint32_t(d);
        } else {
            out[i] = uint32_t(limb);
        }
    }
    return out;
}

BigInt BigInt::bitwise(const BigInt& a, const BigInt& b, char op) {
    size_t n = std::max(a.mag_.size(), b.mag_.size()) + 1;
    std::vector<uint32_t> x = twosComplement(a.neg_, a.mag_, n), y = twosComplement(b.neg_, b.mag_, n);
    for (size_t i = 0; i < n; ++i) x[i] = op == '&' ? x[i] & y[i] : op == '|' ? x[i] | y[i] : x[i] ^ y[i];
    BigInt r;
    r.neg_ = (x[n - 1] >> 31) != 0;
    if (r.neg_) { // magnitude: invert and add one
        uint64_t carry = 1;
        for (size_t i = 0; i < n; ++i) {
            uint64_t v = uint64_t(uint32_t(~x[i])) + carry;
            x[i] = uint32_t(v);
            carry = v >> 32;
        }
    }
    r.mag_ = std::move(x);
    r.trim();
    if (r.mag_.empty()) r.neg_ = false;
    return r;
}

BigInt BigInt::shiftedLeft(uint64_t bits) const {
    BigInt r;
    if (isZero()) return r;
    size_t limbs = size_t(bits / 32);
    int s = int(bits % 32);
    r.mag_.assign(limbs, 0);
    uint32_t carry = 0;
    for (uint32_t l : mag_) {
        r.mag_.push_back(s ? (l << s) | carry : l);
        carry = s ? l >> (32 - s) : 0;
    }
    if (carry) r.mag_.push_back(carry);
    r.neg_ = neg_;
    r.trim();
    return r;
}

} // namespace fl::script
