// Arbitrary-precision integers for the few places Python ints outgrow 64 bits (2 ** 64, 10 ** 30).
// Values that fit in int64 are always demoted back to plain ints, so a BigInt is never small.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fl::script {

class BigInt {
public:
    BigInt() = default;
    static BigInt fromInt(int64_t v);
    static bool fromDouble(double d, BigInt& out);                 // false for nan/inf
    static bool fromDecimal(const std::string& digits, BigInt& out); // optional sign, digits, '_'

    bool isZero() const { return mag_.empty(); }
    bool negative() const { return neg_; }
    bool toInt64(int64_t& out) const;
    double toDouble() const; // +-inf when too large
    std::string toDecimal() const;
    size_t bitLength() const;
    uint64_t magnitudeMod(uint64_t m) const; // |this| mod m, for m below 2**63 (Python's numeric hash)

    static int compare(const BigInt& a, const BigInt& b);
    friend BigInt operator+(const BigInt& a, const BigInt& b);
    friend BigInt operator-(const BigInt& a, const BigInt& b);
    friend BigInt operator*(const BigInt& a, const BigInt& b);
    BigInt operator-() const { BigInt r = *this; if (!r.isZero()) r.neg_ = !r.neg_; return r; }
    // Python's floor division and modulo (remainder has the divisor's sign). b must be nonzero.
    static void floorDivMod(const BigInt& a, const BigInt& b, BigInt& q, BigInt& r);
    static BigInt pow(const BigInt& base, uint64_t exp);
    BigInt shiftedLeft(uint64_t bits) const;
    // Python's & | ^ ('&', '|', '^'): on the infinite two's-complement forms of a and b.
    static BigInt bitwise(const BigInt& a, const BigInt& b, char op);

    // Multiplying numbers of thousands of limbs takes long: such loops call the calling thread's
    // poll function now and then (the interpreter installs one that throws when the run is
    // cancelled, so `3 ** 10**7` honours --timeout). Null: none.
    using Poll = void (*)(void* arg);
    static void setPoll(Poll fn, void* arg);

private:
    void trim();
    static int compareMag(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);
    static std::vector<uint32_t> addMag(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);
    static std::vector<uint32_t> subMag(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b); // a >= b
    static void divModMag(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, std::vector<uint32_t>& q, std::vector<uint32_t>& r);
    bool neg_ = false;
    std::vector<uint32_t> mag_; // little-endian base 2^32, no leading zero limbs
};

} // namespace fl::script
