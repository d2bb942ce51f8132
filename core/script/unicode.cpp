#include "core/script/unicode.h"

#include <algorithm>
#include <iterator>

namespace fl::script::unicode {

namespace {
struct CaseRun { uint32_t first, last; uint8_t stride; int32_t delta; };
struct CaseSpecial { uint32_t cp; const char* utf8; };
#include "core/script/unicode_data.inc"

constexpr uint32_t kCapitalSigma = 0x3A3, kSmallSigma = 0x3C3, kFinalSigma = 0x3C2;

template <size_t R, size_t S>
void mapWith(std::string& out, uint32_t cp, const CaseRun (&runs)[R], const CaseSpecial (&special)[S]) {
    for (const CaseSpecial& e : special)
        if (e.cp == cp) { out += e.utf8; return; }
    const CaseRun* it = std::upper_bound(runs, runs + R, cp, [](uint32_t v, const CaseRun& r) { return v < r.first; });
    if (it != runs && cp <= (it - 1)->last && (cp - (it - 1)->first) % (it - 1)->stride == 0) {
        appendUtf8(out, uint32_t(int64_t(cp) + (it - 1)->delta));
        return;
    }
    appendUtf8(out, cp);
}

// Whether the capital sigma at cps[i] ends a word: a cased letter before it and none after it,
// looking past case-ignorable characters on both sides.
bool finalSigma(const std::vector<uint32_t>& cps, size_t i) {
    size_t j = i;
    while (j > 0 && is(cps[j - 1], CaseIgnorable)) --j;
    if (j == 0 || !isCased(cps[j - 1])) return false;
    size_t k = i + 1;
    while (k < cps.size() && is(cps[k], CaseIgnorable)) ++k;
    return k == cps.size() || !isCased(cps[k]);
}

// Lowers cps[i] into out, the capital sigma by its place in the word.
void appendLowered(std::string& out, const std::vector<uint32_t>& cps, size_t i) {
    if (cps[i] == kCapitalSigma) appendUtf8(out, finalSigma(cps, i) ? kFinalSigma : kSmallSigma);
    else appendMapped(out, cps[i], Mapping::Lower);
}

bool isAscii(const std::string& s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return (unsigned char)c < 0x80; });
}
} // namespace

uint16_t classes(uint32_t cp) {
    if (cp >= 0x110000) return 0;
    const uint32_t key = (cp << 10) | 0x3ff;
    const uint32_t* it = std::upper_bound(std::begin(kFlagRuns), std::end(kFlagRuns), key);
    return it == std::begin(kFlagRuns) ? 0 : uint16_t(*(it - 1) & 0x3ff);
}

uint32_t decodeAt(const std::string& s, size_t i, size_t& n) {
    unsigned char c = s[i];
    n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    if (i + n > s.size()) n = 1;
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (uint32_t((unsigned char)s[i + k]) & 0x3F);
    return cp;
}

std::vector<uint32_t> decode(const std::string& s) {
    std::vector<uint32_t> out;
    out.reserve(s.size());
    size_t n = 1;
    for (size_t i = 0; i < s.size(); i += n) out.push_back(decodeAt(s, i, n));
    return out;
}

size_t spaceAt(const std::string& s, size_t i) {
    size_t n = 1;
    uint32_t cp = decodeAt(s, i, n);
    return is(cp, Space) ? n : 0;
}

size_t spaceBefore(const std::string& s, size_t end) {
    if (end == 0) return 0;
    size_t start = end - 1;
    while (start > 0 && end - start < 4 && ((unsigned char)s[start] & 0xC0) == 0x80) --start;
    size_t n = 1;
    uint32_t cp = decodeAt(s, start, n);
    return start + n == end && is(cp, Space) ? n : 0;
}

void appendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

std::string encode(const std::vector<uint32_t>& cps) {
    std::string out;
    out.reserve(cps.size());
    for (uint32_t cp : cps) appendUtf8(out, cp);
    return out;
}

void appendMapped(std::string& out, uint32_t cp, Mapping m) {
    switch (m) {
    case Mapping::Lower: mapWith(out, cp, kLowerRuns, kLowerSpecial); break;
    case Mapping::Upper: mapWith(out, cp, kUpperRuns, kUpperSpecial); break;
    case Mapping::Title: mapWith(out, cp, kTitleRuns, kTitleSpecial); break;
    case Mapping::Fold: mapWith(out, cp, kFoldRuns, kFoldSpecial); break;
    }
}

std::string lower(const std::string& s) {
    std::string out;
    if (isAscii(s)) {
        out = s;
        for (auto& c : out) if (c >= 'A' && c <= 'Z') c = char(c + 32);
        return out;
    }
    std::vector<uint32_t> cps = decode(s);
    for (size_t i = 0; i < cps.size(); ++i) appendLowered(out, cps, i);
    return out;
}

std::string upper(const std::string& s) {
    std::string out;
    if (isAscii(s)) {
        out = s;
        for (auto& c : out) if (c >= 'a' && c <= 'z') c = char(c - 32);
        return out;
    }
    for (uint32_t cp : decode(s)) appendMapped(out, cp, Mapping::Upper);
    return out;
}

std::string casefold(const std::string& s) {
    std::string out;
    for (uint32_t cp : decode(s)) appendMapped(out, cp, Mapping::Fold);
    return out;
}

// Each word's first cased character titlecased, the rest lowered; a word runs while characters are cased.
std::string title(const std::string& s) {
    std::vector<uint32_t> cps = decode(s);
    std::string out;
    bool previousCased = false;
    for (size_t i = 0; i < cps.size(); ++i) {
        if (previousCased) appendLowered(out, cps, i);
        else appendMapped(out, cps[i], Mapping::Title);
        previousCased = isCased(cps[i]);
    }
    return out;
}

std::string capitalize(const std::string& s) {
    std::vector<uint32_t> cps = decode(s);
    std::string out;
    for (size_t i = 0; i < cps.size(); ++i) {
        if (i == 0) appendMapped(out, cps[i], Mapping::Title);
        else appendLowered(out, cps, i);
    }
    return out;
}

std::string swapcase(const std::string& s) {
    std::vector<uint32_t> cps = decode(s);
    std::string out;
    for (size_t i = 0; i < cps.size(); ++i) {
        if (is(cps[i], Upper)) appendLowered(out, cps, i);
        else if (is(cps[i], Lower)) appendMapped(out, cps[i], Mapping::Upper);
        else appendUtf8(out, cps[i]);
    }
    return out;
}

} // namespace fl::script::unicode
