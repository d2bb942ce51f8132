// Python-exact text for numbers and strings: repr(float), repr(str) and the format-spec
// mini-language of format()/f-strings, matching CPython 3.11 byte for byte. Standard library only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fl::script {

// A bad format spec or a value the spec cannot render. `message` is CPython's exception text;
// `overflow` marks the one case CPython raises OverflowError rather than ValueError ('c' out of range).
struct FormatError {
    std::string message;
    bool overflow = false;
};

// repr(float): shortest round-trip digits, exponent form when the decimal point position is
// <= -4 or > 16 ('1e-05', '1e+16', '100.0', 'inf', 'nan', '-0.0').
std::string reprFloat(double v);

// repr(str) of UTF-8 text: quote choice, \n \t \r \\ \xHH \uHHHH \UHHHHHHHH escapes; printable
// non-ASCII characters (per Unicode 14, as CPython 3.11) stay as they are. Bytes that are not valid
// UTF-8 are read as Python's surrogateescape would (U+DC80 + byte), so they show as '\udcXX'.
std::string reprStr(std::string_view utf8);

// format(value, spec) for int, float and str. Throw FormatError with CPython's message.
std::string formatInt(int64_t v, std::string_view spec);
std::string formatFloat(double v, std::string_view spec);
std::string formatStr(std::string_view s, std::string_view spec);

} // namespace fl::script
