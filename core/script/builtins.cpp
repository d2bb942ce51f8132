#include "core/script/builtins.h"

#include "core/script/hooks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <utility>

#include "core/script/interp.h"
#include "core/script/pyformat.h"
#include "core/script/torch_api.h"
#include "core/script/unicode.h"

namespace fl::script {

// ---------------------------------------------------------------- UTF-8 helpers
std::vector<std::string> utf8Chars(const std::string& s) {
    std::vector<std::string> out;
    for (size_t i = 0; i < s.size();) {
        unsigned char c = s[i];
        size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
        if (i + n > s.size()) n = 1;
        out.push_back(s.substr(i, n));
        i += n;
    }
    return out;
}

int64_t utf8Length(const std::string& s) {
    int64_t n = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80) ++n;
    return n;
}

// ---------------------------------------------------------------- formatting
std::string formatValue(Interp& in, const Value& v, const std::string& spec) {
    try {
        if (v.isBool() && spec.empty()) return v.b() ? "True" : "False";
        if (v.isIntLike()) return formatInt(v.i(), spec);
        if (v.isFloat()) return formatFloat(v.f(), spec);
        if (v.isStr()) return formatStr(strOf(v), spec);
        if (v.isTensor()) return tensorFormat(in, v, spec);
        if (isBigInt(v)) {
            if (spec.empty() || spec == "d") return in.repr(v);
            return formatFloat(toFloat(in, v, "int"), spec);
        }
    } catch (FormatError& e) {
        in.raiseValue(e.message);
    }
    if (v.is(OK::Instance)) {
        const Value* f = v.as<InstanceObj>()->cls->lookup("__format__");
        if (f && f->is(OK::Function)) {
            Value r = in.call(*f, {v, makeStr(spec)});
            return in.str(r);
        }
    }
    if (!spec.empty()) in.raiseType("unsupported format string passed to " + in.typeName(v) + ".__format__");
    return in.str(v);
}

std::string percentFormat(Interp& in, const std::string& fmt, const Value& args) {
    std::vector<Value> items;
    bool isMap = args.is(OK::Dict);
    if (args.is(OK::Tuple)) items = args.as<TupleObj>()->items;
    else if (!isMap) items.push_back(args);
    size_t next = 0;
    std::string out;
    for (size_t i = 0; i < fmt.size(); ++i) {
        char c = fmt[i];
        if (c != '%') { out += c; continue; }
        if (++i >= fmt.size()) in.raiseValue("incomplete format");
        if (fmt[i] == '%') { out += '%'; continue; }
        Value arg;
        bool haveArg = false;
        if (fmt[i] == '(') {
            size_t close = fmt.find(')', i);
            if (close == std::string::npos || !isMap) in.raiseType("format requires a mapping");
            Value* v = args.as<DictObj>()->map.find(makeStr(fmt.substr(i + 1, close - i - 1)));
            if (!v) in.raise(in.keyError, fmt.substr(i + 1, close - i - 1));
            arg = *v;
            haveArg = true;
            i = close + 1;
        }
        std::string flags;
        while (i < fmt.size() && strchr("-+ 0#", fmt[i])) flags += fmt[i++];
        std::string width, prec;
        while (i < fmt.size() && isdigit((unsigned char)fmt[i])) width += fmt[i++];
        if (i < fmt.size() && fmt[i] == '.') {
            ++i;
            prec = ".";
            while (i < fmt.size() && isdigit((unsigned char)fmt[i])) prec += fmt[i++];
            if (prec == ".") prec = ".0";
        }
        if (i >= fmt.size()) in.raiseValue("incomplete format");
        char type = fmt[i];
        if (!haveArg) {
            if (next >= items.size()) in.raiseType("not enough arguments for format string");
            arg = items[next++];
        }
        std::string align = flags.find('-') != std::string::npos ? "<" : ">";
        std::string sign = flags.find('+') != std::string::npos ? "+" : flags.find(' ') != std::string::npos ? " " : "";
        bool zero = flags.find('0') != std::string::npos && align == ">";
        switch (type) {
        case 's': out += formatValue(in, makeStr(in.str(arg)), align + width + prec); break;
        case 'r': out += formatValue(in, makeStr(in.repr(arg)), align + width + prec); break;
        case 'd':
        case 'i':
        case 'u': {
            int64_t x;
            if (arg.isFloat()) x = int64_t(std::trunc(arg.f()));
            else x = toInt(in, arg, "%d format: a real number");
            if (prec.size() > 1) {
                // a precision is the least number of digits (zeros in front), as in C; then the width
                std::string digits = std::to_string(x < 0 ? -(x + 1) + uint64_t(1) : uint64_t(x));
                size_t want = size_t(std::min(std::stol(prec.substr(1)), 100000L));
                if (digits.size() < want) digits.insert(0, want - digits.size(), '0');
                std::string body = (x < 0 ? "-" : sign) + digits;
                out += formatValue(in, makeStr(body), align + width);
                break;
            }
            out += formatValue(in, Value::integer(x), (zero ? "" : align) + sign + (zero ? "0" : "") + width + "d");
            break;
        }
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
            out += formatValue(in, Value::real(toFloat(in, arg, "must be real number")), (zero ? "" : align) + sign + (zero ? "0" : "") + width + (prec.empty() ? ".6" : prec) + type);
            break;
        case 'x':
        case 'X':
        case 'o':
            out += formatValue(in, Value::integer(toInt(in, arg, "%x format: an integer")), (zero ? "" : align) + sign + (flags.find('#') != std::string::npos ? "#" : "") + (zero ? "0" : "") + width + type);
            break;
        case 'c': {
            std::string ch;
            if (arg.isStr()) {
                ch = strOf(arg);
            } else {
                const int64_t cp = toInt(in, arg, "%c");
                if (cp < 0 || cp >= 0x110000) in.raise(in.overflowError, "%c arg not in range(0x110000)");
                unicode::appendUtf8(ch, uint32_t(cp));
            }
            out += formatValue(in, makeStr(ch), align + width);
            break;
        }
        default: in.raiseValue(std::string("unsupported format character '") + type + "'");
        }
    }
    if (!isMap && next < items.size()) in.raiseType("not all arguments converted during string formatting");
    return out;
}

namespace {

std::string strFormat(Interp& in, const std::string& fmt, CallArgs& a) {
    std::string out;
    size_t autoIdx = 0;
    for (size_t i = 0; i < fmt.size(); ++i) {
        char c = fmt[i];
        if (c == '}') {
            if (i + 1 < fmt.size() && fmt[i + 1] == '}') { out += '}'; ++i; continue; }
            in.raiseValue("Single '}' encountered in format string");
        }
        if (c != '{') { out += c; continue; }
        if (i + 1 < fmt.size() && fmt[i + 1] == '{') { out += '{'; ++i; continue; }
        // find the matching close brace, allowing one level of nesting in the spec
        size_t j = i + 1;
        int depth = 1;
        for (; j < fmt.size(); ++j) {
            if (fmt[j] == '{') ++depth;
            else if (fmt[j] == '}' && --depth == 0) break;
        }
        if (j >= fmt.size()) in.raiseValue("Single '{' encountered in format string");
        std::string field = fmt.substr(i + 1, j - i - 1);
        i = j;
        std::string spec;
        char conv = 0;
        size_t colon = field.find(':');
        if (colon != std::string::npos) { spec = field.substr(colon + 1); field = field.substr(0, colon); }
        size_t bang = field.find('!');
        if (bang != std::string::npos) {
            if (bang + 1 < field.size()) conv = field[bang + 1];
            field = field.substr(0, bang);
        }
        if (spec.find('{') != std::string::npos) spec = strFormat(in, spec, a);
        // field name: arg_name ('.' attr | '[' index ']')*
        size_t k = 0;
        while (k < field.size() && field[k] != '.' && field[k] != '[') ++k;
        std::string head = field.substr(0, k);
        Value v;
        if (head.empty()) {
            if (autoIdx >= a.pos.size()) in.raise(in.indexError, "Replacement index " + std::to_string(autoIdx) + " out of range for positional args tuple");
            v = a.pos[autoIdx++];
        } else if (isdigit((unsigned char)head[0])) {
            size_t idx = std::stoul(head);
            if (idx >= a.pos.size()) in.raise(in.indexError, "Replacement index " + std::to_string(idx) + " out of range for positional args tuple");
            v = a.pos[idx];
        } else {
            bool found = false;
            for (auto& [kn, kv] : a.kw)
                if (kn == head) { v = kv; found = true; break; }
            if (!found) {
                auto kv = in.makeException(in.keyError, "");
                kv.as<InstanceObj>()->attrs["args"] = makeTuple({makeStr(head)});
                in.raiseExc(kv);
            }
        }
        while (k < field.size()) {
            if (field[k] == '.') {
                size_t e = k + 1;
                while (e < field.size() && field[e] != '.' && field[e] != '[') ++e;
                v = in.getAttr(v, field.substr(k + 1, e - k - 1));
                k = e;
            } else {
                size_t e = field.find(']', k);
                if (e == std::string::npos) in.raiseValue("Missing ']' in format string");
                std::string key = field.substr(k + 1, e - k - 1);
                bool numeric = !key.empty() && std::all_of(key.begin(), key.end(), [](char ch) { return isdigit((unsigned char)ch); });
                v = in.getItem(v, numeric ? Value::integer(std::stoll(key)) : makeStr(key));
                k = e + 1;
            }
        }
        if (conv == 'r' || conv == 'a') v = makeStr(in.repr(v));
        else if (conv == 's') v = makeStr(in.str(v));
        out += formatValue(in, v, spec);
    }
    return out;
}

// str.strip() and split() with no argument take Unicode's whitespace, as str.isspace() does.
std::string stripChars(const std::string& s, const Value& chars, bool left, bool right) {
    size_t a = 0, b = s.size();
    if (chars.isNone() || chars.isMissing()) {
        if (left) for (size_t n; a < b && (n = unicode::spaceAt(s, a));) a += n;
        if (right) for (size_t n; b > a && (n = unicode::spaceBefore(s, b));) b -= n;
        return s.substr(a, b - a);
    }
    std::vector<uint32_t> set = unicode::decode(strOf(chars));
    auto stripped = [&](size_t i, size_t& n) { return std::find(set.begin(), set.end(), unicode::decodeAt(s, i, n)) != set.end(); };
    size_t n = 1;
    if (left) while (a < b && stripped(a, n)) a += n;
    if (right)
        while (b > a) {
            size_t start = b - 1;
            while (start > a && ((unsigned char)s[start] & 0xC0) == 0x80) --start;
            if (!stripped(start, n)) break;
            b = start;
        }
    return s.substr(a, b - a);
}

Value splitStr(Interp& in, const std::string& s, const Value& sepV, int64_t maxsplit, bool fromRight) {
    std::vector<Value> parts;
    if (sepV.isNone() || sepV.isMissing()) {
        // whitespace split
        std::vector<std::pair<size_t, size_t>> words;
        size_t i = 0, n = 0;
        while (i < s.size()) {
            while (i < s.size() && (n = unicode::spaceAt(s, i))) i += n;
            if (i >= s.size()) break;
            size_t j = i, len = 1;
            while (j < s.size() && !unicode::spaceAt(s, j)) {
                unicode::decodeAt(s, j, len);
                j += len;
            }
            words.emplace_back(i, j);
            i = j;
        }
        if (maxsplit < 0 || int64_t(words.size()) <= maxsplit + 1) {
            for (auto& [a, b] : words) parts.push_back(makeStr(s.substr(a, b - a)));
        } else if (!fromRight) {
            for (int64_t k = 0; k < maxsplit; ++k) parts.push_back(makeStr(s.substr(words[k].first, words[k].second - words[k].first)));
            std::string rest = s.substr(words[maxsplit].first);
            size_t e = rest.size();
            while (e > 0 && (n = unicode::spaceBefore(rest, e))) e -= n;
            parts.push_back(makeStr(rest.substr(0, e)));
        } else {
            size_t keep = words.size() - maxsplit;
            std::string head = s.substr(0, words[keep - 1].second);
            size_t st = 0;
            while (st < head.size() && (n = unicode::spaceAt(head, st))) st += n;
            parts.push_back(makeStr(head.substr(st)));
            for (size_t k = keep; k < words.size(); ++k) parts.push_back(makeStr(s.substr(words[k].first, words[k].second - words[k].first)));
        }
        return makeList(std::move(parts));
    }
    const std::string& sep = toStr(in, sepV, "sep");
    if (sep.empty()) in.raiseValue("empty separator");
    std::vector<std::string> pieces;
    size_t pos = 0;
    while (true) {
        size_t f = s.find(sep, pos);
        if (f == std::string::npos) break;
        pieces.push_back(s.substr(pos, f - pos));
        pos = f + sep.size();
    }
    pieces.push_back(s.substr(pos));
    if (maxsplit >= 0 && int64_t(pieces.size()) > maxsplit + 1) {
        std::vector<std::string> merged;
        if (!fromRight) {
            for (int64_t k = 0; k < maxsplit; ++k) merged.push_back(pieces[k]);
            std::string rest = pieces[maxsplit];
            for (size_t k = maxsplit + 1; k < pieces.size(); ++k) rest += sep + pieces[k];
            merged.push_back(rest);
        } else {
            size_t keep = pieces.size() - maxsplit;
            std::string head = pieces[0];
            for (size_t k = 1; k < keep; ++k) head += sep + pieces[k];
            merged.push_back(head);
            for (size_t k = keep; k < pieces.size(); ++k) merged.push_back(pieces[k]);
        }
        pieces = std::move(merged);
    }
    for (auto& p : pieces) parts.push_back(makeStr(p));
    return makeList(std::move(parts));
}

Value arg(const std::vector<Value>& b, size_t i, Value dflt = Value()) { return b[i].isMissing() ? dflt : b[i]; }

Value newSet(Interp& in, const std::vector<Value>& items) {
    auto s = std::make_shared<SetObj>();
    for (auto& v : items) {
        try { s->map.set(v, Value()); }
        catch (UnhashableError& u) { in.raiseType("unhashable type: '" + u.typeName + "'"); }
    }
    return Value(s);
}

std::vector<Value> setItems(const Value& v) {
    std::vector<Value> out;
    for (auto& e : (v.is(OK::Set) ? v.as<SetObj>()->map : v.as<DictObj>()->map).entries())
        if (e.live) out.push_back(e.key);
    return out;
}

bool pyLess(Interp& in, const Value& a, const Value& b) { return in.truthy(in.compare(CmpOpKind::Lt, a, b)); }

void sortValues(Interp& in, std::vector<Value>& items, const Value& key, bool reverse) {
    std::vector<Value> keys;
    if (!key.isNone() && !key.isMissing()) {
        keys.reserve(items.size());
        for (auto& v : items) keys.push_back(in.call(key, {v}));
    } else {
        keys = items;
    }
    std::vector<size_t> idx(items.size());
    std::iota(idx.begin(), idx.end(), 0);
    if (reverse) std::reverse(idx.begin(), idx.end());
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return pyLess(in, keys[a], keys[b]); });
    if (reverse) std::reverse(idx.begin(), idx.end());
    std::vector<Value> out;
    out.reserve(items.size());
    for (size_t i : idx) out.push_back(items[i]);
    items = std::move(out);
}

Value minmax(Interp& in, CallArgs& a, bool isMax) {
    static Sig sigMin("min", "*args, key=, default=");
    static Sig sigMax("max", "*args, key=, default=");
    auto b = (isMax ? sigMax : sigMin).bind(in, a);
    std::vector<Value> items = b[0].as<TupleObj>()->items;
    const char* name = isMax ? "max" : "min";
    if (items.empty()) in.raiseType(std::string(name) + " expected at least 1 argument, got 0");
    if (items.size() == 1) items = in.toVector(items[0]);
    else if (!b[2].isMissing()) in.raiseType(std::string("Cannot specify a default for ") + name + "() with multiple positional arguments");
    if (items.empty()) {
        if (!b[2].isMissing()) return b[2];
        in.raiseValue(std::string(name) + "() arg is an empty sequence");
    }
    Value best = items[0];
    Value bestKey = b[1].isMissing() || b[1].isNone() ? best : in.call(b[1], {best});
    for (size_t i = 1; i < items.size(); ++i) {
        Value k = b[1].isMissing() || b[1].isNone() ? items[i] : in.call(b[1], {items[i]});
        bool better = isMax ? pyLess(in, bestKey, k) : pyLess(in, k, bestKey);
        if (better) { best = items[i]; bestKey = k; }
    }
    return best;
}

double pyRound(double x, int64_t nd) {
    if (!std::isfinite(x)) return x;
    if (nd >= 0) {
        if (nd > 300) return x;
        char buf[512];
        snprintf(buf, sizeof buf, "%.*f", int(nd), x);
        return strtod(buf, nullptr);
    }
    double p = std::pow(10.0, double(-nd));
    double y = x / p;
    double r = std::nearbyint(y); // ties to even (default rounding mode)
    return r * p;
}

Value toIntValue(Interp& in, const Value& v, const Value& baseV) {
    if (!baseV.isMissing()) {
        const std::string& s = toStr(in, v, "int() can't convert non-string with explicit base");
        int64_t base64 = baseV.is(OK::BigInt) ? 37 : toInt(in, baseV, "base"); // past 64 bits: out of range too
        if (base64 != 0 && (base64 < 2 || base64 > 36)) in.raiseValue("int() base must be >= 2 and <= 36, or 0");
        int base = int(base64);
        std::string t;
        for (char c : stripChars(s, Value(), true, true))
            if (c != '_') t += c;
        char* end = nullptr;
        errno = 0;
        long long r = strtoll(t.c_str(), &end, base);
        if (t.empty() || *end || errno) in.raiseValue("invalid literal for int() with base " + std::to_string(base) + ": " + reprStr(s));
        return Value::integer(r);
    }
    if (v.isIntLike()) return Value::integer(v.i());
    if (v.isFloat()) {
        double f = v.f();
        if (std::isnan(f)) in.raiseValue("cannot convert float NaN to integer");
        if (std::isinf(f)) in.raise(in.overflowError, "cannot convert float infinity to integer");
        if (std::fabs(f) >= 9.2233720368547758e18) {
            BigInt b;
            BigInt::fromDouble(f, b);
            return makeInt(b);
        }
        return Value::integer(int64_t(std::trunc(f)));
    }
    if (v.isStr()) {
        std::string t;
        for (char c : stripChars(strOf(v), Value(), true, true))
            if (c != '_') t += c;
        char* end = nullptr;
        errno = 0;
        long long r = strtoll(t.c_str(), &end, 10);
        if (!t.empty() && !*end && errno == ERANGE) {
            BigInt b;
            if (BigInt::fromDecimal(t, b)) return makeInt(b);
        }
        if (t.empty() || *end || errno) in.raiseValue("invalid literal for int() with base 10: " + reprStr(strOf(v)));
        return Value::integer(r);
    }
    if (isBigInt(v)) return v;
    if (v.isTensor()) {
        double f = tensorToFloat(in, v);
        return toIntValue(in, Value::real(f), Value::missing());
    }
    Value m;
    if (v.is(OK::Instance) && in.tryGetAttr(v, "__int__", m)) return in.call(m, std::vector<Value>{});
    in.raiseType("int() argument must be a string, a bytes-like object or a real number, not '" + in.typeName(v) + "'");
}

Value toFloatValue(Interp& in, const Value& v) {
    if (v.isNumber()) return Value::real(v.num());
    if (v.isStr()) {
        std::string t = stripChars(strOf(v), Value(), true, true);
        std::string low;
        for (char c : t) low += char(tolower((unsigned char)c));
        std::string sgnless = (!low.empty() && (low[0] == '+' || low[0] == '-')) ? low.substr(1) : low;
        double sign = (!low.empty() && low[0] == '-') ? -1.0 : 1.0;
        if (sgnless == "inf" || sgnless == "infinity") return Value::real(sign * INFINITY);
        if (sgnless == "nan") return Value::real(NAN);
        std::string clean;
        for (char c : t)
            if (c != '_') clean += c;
        char* end = nullptr;
        double r = strtod(clean.c_str(), &end);
        if (clean.empty() || *end || sgnless.find_first_of("xp") != std::string::npos) in.raiseValue("could not convert string to float: " + reprStr(strOf(v)));
        return Value::real(r);
    }
    if (v.isTensor()) return Value::real(tensorToFloat(in, v));
    if (isBigInt(v)) return Value::real(toFloat(in, v, "int"));
    Value m;
    if (v.is(OK::Instance) && in.tryGetAttr(v, "__float__", m)) return in.call(m, std::vector<Value>{});
    in.raiseType("float() argument must be a string or a real number, not '" + in.typeName(v) + "'");
}

Value makeIterator(std::function<bool(Value&)> fn, const char* name) {
    auto it = std::make_shared<IteratorObj>();
    it->next = std::move(fn);
    it->typeName = name;
    return Value(it);
}

} // namespace

bool setIterSorted(const ValueMap& m, std::vector<Value>& out) {
    // Small non-negative ints hash to themselves, so CPython's table yields them in order.
    size_t table = 8;
    while (table * 3 < m.size() * 5) table *= 2; // roughly CPython's fill ratio
    for (auto& e : m.entries()) {
        if (!e.live) continue;
        if (!e.key.isIntLike() || e.key.i() < 0 || size_t(e.key.i()) >= table) return false;
        out.push_back(e.key);
    }
    std::sort(out.begin(), out.end(), [](const Value& a, const Value& b) { return a.i() < b.i(); });
    return true;
}

Value setOperation(Interp& in, BinOpKind op, const Value& a, const Value& b) {
    auto& x = a.as<SetObj>()->map;
    auto& y = b.as<SetObj>()->map;
    std::vector<Value> out;
    switch (op) {
    case BinOpKind::BitOr:
        out = setItems(a);
        for (auto& v : setItems(b)) out.push_back(v);
        break;
    case BinOpKind::BitAnd:
        for (auto& v : setItems(a)) if (y.find(v)) out.push_back(v);
        break;
    case BinOpKind::Sub:
        for (auto& v : setItems(a)) if (!y.find(v)) out.push_back(v);
        break;
    default:
        for (auto& v : setItems(a)) if (!y.find(v)) out.push_back(v);
        for (auto& v : setItems(b)) if (!x.find(v)) out.push_back(v);
        break;
    }
    return newSet(in, out);
}

Value setCompare(Interp& in, CmpOpKind op, const Value& a, const Value& b) {
    auto& x = a.as<SetObj>()->map;
    auto& y = b.as<SetObj>()->map;
    auto subset = [&](ValueMap& p, ValueMap& q) {
        for (auto& e : p.entries()) if (e.live && !q.find(e.key)) return false;
        return true;
    };
    switch (op) {
    case CmpOpKind::LtE: return Value::boolean(subset(x, y));
    case CmpOpKind::Lt: return Value::boolean(x.size() < y.size() && subset(x, y));
    case CmpOpKind::GtE: return Value::boolean(subset(y, x));
    case CmpOpKind::Gt: return Value::boolean(x.size() > y.size() && subset(y, x));
    default: in.raiseType("unsupported set comparison");
    }
}

// ---------------------------------------------------------------- install
// ---- the builtins, by type (installBuiltins calls these in order)

static void installTypes(Interp& in) {
    auto cls = [&](const std::string& name, const ClassP& base) { return in.makeClass(name, base); };
    in.objectCls = cls("object", nullptr);
    in.typeCls = cls("type", in.objectCls);
    in.intCls = cls("int", in.objectCls);
    in.boolCls = cls("bool", in.intCls);
    in.floatCls = cls("float", in.objectCls);
    in.strCls = cls("str", in.objectCls);
    in.listCls = cls("list", in.objectCls);
    in.tupleCls = cls("tuple", in.objectCls);
    in.dictCls = cls("dict", in.objectCls);
    in.setCls = cls("set", in.objectCls);
    in.noneCls = cls("NoneType", in.objectCls);
    in.functionCls = cls("function", in.objectCls);
    in.builtinFnCls = cls("builtin_function_or_method", in.objectCls);
    in.moduleCls = cls("module", in.objectCls);
    in.rangeCls = cls("range", in.objectCls);
    in.sliceCls = cls("slice", in.objectCls);
    in.iteratorCls = cls("iterator", in.objectCls);
    in.ellipsisCls = cls("ellipsis", in.objectCls);
    for (auto* c : {&in.boolCls, &in.noneCls, &in.functionCls, &in.builtinFnCls, &in.moduleCls, &in.rangeCls, &in.sliceCls, &in.iteratorCls, &in.ellipsisCls})
        (*c)->final_ = true;
    // NotImplemented: what a binary or comparison method returns to let the other operand try
    auto notImplementedCls = cls("NotImplementedType", in.objectCls);
    notImplementedCls->final_ = true;
    in.addMethod(notImplementedCls, "__repr__", [](Interp&, const Value&, CallArgs&) { return makeStr("NotImplemented"); });
    auto notImplemented = std::make_shared<OpaqueObj>();
    notImplemented->cls = notImplementedCls;
    in.notImplemented = Value(notImplemented);
    notImplementedCls->ctor = [](Interp& in, CallArgs& a) {
        if (!a.pos.empty() || !a.kw.empty()) in.raiseType("NotImplementedType takes no arguments");
        return in.notImplemented;
    };

    // exceptions
    in.baseExc = cls("BaseException", in.objectCls);
    in.exceptionCls = cls("Exception", in.baseExc);
    in.systemExit = cls("SystemExit", in.baseExc);
    in.keyboardInterrupt = cls("KeyboardInterrupt", in.baseExc);
    in.generatorExit = cls("GeneratorExit", in.baseExc);
    in.arithmeticError = cls("ArithmeticError", in.exceptionCls);
    in.zeroDivisionError = cls("ZeroDivisionError", in.arithmeticError);
    in.overflowError = cls("OverflowError", in.arithmeticError);
    cls("FloatingPointError", in.arithmeticError);
    in.assertionError = cls("AssertionError", in.exceptionCls);
    in.attributeError = cls("AttributeError", in.exceptionCls);
    in.importError = cls("ImportError", in.exceptionCls);
    in.moduleNotFoundError = cls("ModuleNotFoundError", in.importError);
    in.lookupError = cls("LookupError", in.exceptionCls);
    in.indexError = cls("IndexError", in.lookupError);
    in.keyError = cls("KeyError", in.lookupError);
    in.memoryError = cls("MemoryError", in.exceptionCls);
    in.nameError = cls("NameError", in.exceptionCls);
    in.unboundLocalError = cls("UnboundLocalError", in.nameError);
    in.runtimeError = cls("RuntimeError", in.exceptionCls);
    in.notImplementedError = cls("NotImplementedError", in.runtimeError);
    in.recursionError = cls("RecursionError", in.runtimeError);
    in.stopIteration = cls("StopIteration", in.exceptionCls);
    in.typeError = cls("TypeError", in.exceptionCls);
    in.valueError = cls("ValueError", in.exceptionCls);
    cls("SyntaxError", in.exceptionCls);
    cls("IndentationError", in.builtinClass("SyntaxError"));
    cls("UnicodeError", in.valueError);
    cls("OSError", in.exceptionCls);
    cls("PermissionError", in.builtinClass("OSError"));
    cls("FileNotFoundError", in.builtinClass("OSError"));
    cls("Warning", in.exceptionCls);
    cls("UserWarning", in.builtinClass("Warning"));
    cls("DeprecationWarning", in.builtinClass("Warning"));
    cls("RuntimeWarning", in.builtinClass("Warning"));
    cls("FutureWarning", in.builtinClass("Warning"));
    const char* excNames[] = {"BaseException", "Exception", "SystemExit", "KeyboardInterrupt", "GeneratorExit", "ArithmeticError",
                              "ZeroDivisionError", "OverflowError", "FloatingPointError", "AssertionError", "AttributeError",
                              "ImportError", "ModuleNotFoundError", "LookupError", "IndexError", "KeyError", "MemoryError",
                              "NameError", "UnboundLocalError", "RuntimeError", "NotImplementedError", "RecursionError",
                              "StopIteration", "TypeError", "ValueError", "SyntaxError", "IndentationError", "UnicodeError",
                              "PermissionError", "Warning", "UserWarning", "DeprecationWarning", "OSError", "FileNotFoundError",
                              "RuntimeWarning", "FutureWarning"};
    for (auto* n : excNames) in.setBuiltin(n, Value(in.builtinClass(n)));
    in.addMethod(in.baseExc, "__init__", [](Interp&, const Value&, CallArgs& a) {
        std::vector<Value> rest(a.pos.begin() + 1, a.pos.end());
        if (a.pos[0].is(OK::Instance)) a.pos[0].as<InstanceObj>()->attrs["args"] = makeTuple(std::move(rest));
        return Value();
    });
    // StopIteration(value): what a generator returned, as `value` (None without arguments)
    in.addMethod(in.stopIteration, "__init__", [](Interp&, const Value&, CallArgs& a) {
        std::vector<Value> rest(a.pos.begin() + 1, a.pos.end());
        if (a.pos[0].is(OK::Instance)) {
            auto* o = a.pos[0].as<InstanceObj>();
            o->attrs["value"] = rest.empty() ? Value() : rest[0];
            o->attrs["args"] = makeTuple(std::move(rest));
        }
        return Value();
    });

    // object: the raw attribute operations user classes fall back on
    in.addMethod(in.objectCls, "__init__", [](Interp& in, const Value&, CallArgs& a) {
        if ((a.pos.size() > 1 || !a.kw.empty()) && a.pos[0].is(OK::Instance) && !a.pos[0].as<InstanceObj>()->cls->isSubclassOf(in.baseExc.get()))
            in.raiseType(a.pos[0].as<InstanceObj>()->cls->name + "() takes no arguments");
        return Value();
    });
    in.addMethod(in.objectCls, "__new__", [](Interp& in, const Value&, CallArgs& a) {
        // object.__new__(cls): an instance of a script class, not yet initialised
        if (a.pos.empty() || !a.pos[0].is(OK::Class) || a.pos[0].as<ClassObj>()->isBuiltinType)
            in.raiseType("object.__new__(X): X is not a type object that model scripts can create");
        auto inst = std::make_shared<InstanceObj>();
        inst->cls = std::static_pointer_cast<ClassObj>(a.pos[0].objp());
        return Value(inst);
    });
    in.addMethod(in.objectCls, "__setattr__", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 3 || !a.pos[1].isStr()) in.raiseType("__setattr__ expected 3 arguments");
        if (a.pos[0].is(OK::Instance)) in.setInstanceAttr(a.pos[0].as<InstanceObj>(), strOf(a.pos[1]), a.pos[2]);
        else in.setAttr(a.pos[0], strOf(a.pos[1]), a.pos[2]);
        return Value();
    });
    // the end of every __init_subclass__ chain: a new class, no keywords left over
    in.addMethod(in.objectCls, "__init_subclass__", [](Interp& in, const Value&, CallArgs& a) {
        if (!a.kw.empty())
            in.raiseType((a.pos.empty() || !a.pos[0].is(OK::Class) ? std::string("object") : a.pos[0].as<ClassObj>()->name) +
                         ".__init_subclass__() takes no keyword arguments");
        return Value();
    });
    in.addMethod(in.objectCls, "__delattr__", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2 || !a.pos[1].isStr()) in.raiseType("__delattr__ expected 2 arguments");
        if (!a.pos[0].is(OK::Instance) || !in.delInstanceAttr(a.pos[0].as<InstanceObj>(), strOf(a.pos[1])))
            in.raise(in.attributeError, strOf(a.pos[1]));
        return Value();
    });
    in.objectCls->ctor = [](Interp& in, CallArgs&) {
        auto inst = std::make_shared<InstanceObj>();
        inst->cls = in.objectCls;
        return Value(inst);
    };

}

// The constructors of the built-in types (int(x), str(x), list(it), ...).
static void installConstructors(Interp& in) {
    // ---- type constructors
    in.intCls->ctor = [](Interp& in, CallArgs& a) {
        static Sig sig("int", "x=, base=");
        auto b = sig.bind(in, a);
        if (b[0].isMissing()) return Value::integer(0);
        return toIntValue(in, b[0], b[1]);
    };
    in.floatCls->ctor = [](Interp& in, CallArgs& a) {
        static Sig sig("float", "x=");
        auto b = sig.bind(in, a);
        return b[0].isMissing() ? Value::real(0.0) : toFloatValue(in, b[0]);
    };
    in.boolCls->ctor = [](Interp& in, CallArgs& a) {
        static Sig sig("bool", "x=");
        auto b = sig.bind(in, a);
        return Value::boolean(!b[0].isMissing() && in.truthy(b[0]));
    };
    in.strCls->ctor = [](Interp& in, CallArgs& a) {
        static Sig sig("str", "object=");
        auto b = sig.bind(in, a);
        return b[0].isMissing() ? makeStr("") : makeStr(in.str(b[0]));
    };
    in.listCls->ctor = [](Interp& in, CallArgs& a) {
        static Sig sig("list", "iterable=");
        auto b = sig.bind(in, a);
        return b[0].isMissing() ? makeList() : makeList(in.toVector(b[0]));
    };
    in.tupleCls->ctor = [](Interp& in, CallArgs& a) {
        static Sig sig("tuple", "iterable=");
        auto b = sig.bind(in, a);
        if (!b[0].isMissing() && b[0].is(OK::Tuple) && !b[0].as<TupleObj>()->isSize) return b[0];
        return b[0].isMissing() ? makeTuple() : makeTuple(in.toVector(b[0]));
    };
    in.setCls->ctor = [](Interp& in, CallArgs& a) {
        static Sig sig("set", "iterable=");
        auto b = sig.bind(in, a);
        return newSet(in, b[0].isMissing() ? std::vector<Value>{} : in.toVector(b[0]));
    };
    in.dictCls->ctor = [](Interp& in, CallArgs& a) {
        auto d = std::make_shared<DictObj>();
        if (a.pos.size() > 1) in.raiseType("dict expected at most 1 argument, got " + std::to_string(a.pos.size()));
        if (!a.pos.empty()) {
            const Value& src = a.pos[0];
            if (src.is(OK::Dict) && in.tracer) in.tracer->onSeqUse(src); // a copy: every entry is read
            Value keys;
            if (src.is(OK::Dict)) {
                for (auto& e : src.as<DictObj>()->map.entries())
                    if (e.live) d->map.set(e.key, e.val);
            } else if (src.is(OK::Instance) && in.tryGetAttr(src, "keys", keys)) {
                // a mapping, as CPython takes anything with keys(): its keys, each looked up with []
                for (auto& k : in.toVector(in.call(keys, std::vector<Value>{}))) {
                    Value v = in.getItem(src, k);
                    try { d->map.set(k, v); }
                    catch (UnhashableError& u) { in.raiseType("unhashable type: '" + u.typeName + "'"); }
                }
            } else {
                for (auto& item : in.toVector(src)) {
                    auto kv = in.toVector(item);
                    if (kv.size() != 2) in.raiseValue("dictionary update sequence element has length " + std::to_string(kv.size()) + "; 2 is required");
                    try { d->map.set(kv[0], kv[1]); }
                    catch (UnhashableError& u) { in.raiseType("unhashable type: '" + u.typeName + "'"); }
                }
            }
        }
        for (auto& [k, v] : a.kw) d->map.set(makeStr(k), v);
        return Value(d);
    };
    in.rangeCls->ctor = [](Interp& in, CallArgs& a) {
        if (!a.kw.empty()) in.raiseType("range() takes no keyword arguments");
        auto r = std::make_shared<RangeObj>();
        size_t n = a.pos.size();
        if (n < 1 || n > 3) in.raiseType("range expected at least 1 argument, got " + std::to_string(n));
        auto gi = [&](size_t i) {
            if (!a.pos[i].isIntLike() && !a.pos[i].isTensor()) in.raiseType("'" + in.typeName(a.pos[i]) + "' object cannot be interpreted as an integer");
            return toInt(in, a.pos[i], "range() argument");
        };
        if (n == 1) r->stop = gi(0);
        else { r->start = gi(0); r->stop = gi(1); }
        if (n == 3) r->step = gi(2);
        if (r->step == 0) in.raiseValue("range() arg 3 must not be zero");
        return Value(r);
    };
    in.sliceCls->ctor = [](Interp& in, CallArgs& a) {
        auto s = std::make_shared<SliceObj>();
        if (a.pos.size() == 1) s->stop = a.pos[0];
        else if (a.pos.size() >= 2) { s->start = a.pos[0]; s->stop = a.pos[1]; if (a.pos.size() > 2) s->step = a.pos[2]; }
        else in.raiseType("slice expected at least 1 argument, got 0");
        return Value(s);
    };
    in.typeCls->ctor = [](Interp& in, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("type() takes 1 argument in model scripts");
        return Value(in.typeOf(a.pos[0])->shared_from_this());
    };
    for (auto* n : {"int", "float", "bool", "str", "list", "tuple", "dict", "set", "range", "slice", "type", "object"})
        in.setBuiltin(n, Value(in.builtinClass(n)));

}

// The builtin functions: print, len, range, isinstance, ...
// Long: a table, one short def() per builtin.
static void installFunctions(Interp& in) {
    auto def = [&in](const std::string& name, NativeFn fn) { in.setBuiltin(name, in.makeBuiltin(name, std::move(fn))); };

    def("print", [](Interp& in, const Value&, CallArgs& a) {
        if (in.tracer) {
            std::string types = "[";
            for (size_t i = 0; i < a.pos.size(); ++i) types += (i ? ", '" : "'") + (a.pos[i].isTensor() ? std::string("Tensor") : in.typeName(a.pos[i])) + "'";
            maybeBreak(in, "print", types + "]");
        }
        std::string sep = " ", end = "\n";
        bool flush = false;
        Value file;
        for (auto& [k, v] : a.kw) {
            if (k == "sep") { if (!v.isNone()) sep = toStr(in, v, "sep"); }
            else if (k == "end") { if (!v.isNone()) end = toStr(in, v, "end"); }
            else if (k == "flush") flush = in.truthy(v);
            else if (k == "file") { if (!v.isNone()) file = v; }
            else in.raiseType("'" + k + "' is an invalid keyword argument for print()");
        }
        std::string out;
        for (size_t i = 0; i < a.pos.size(); ++i) {
            if (i) out += sep;
            out += in.str(a.pos[i]);
        }
        out += end;
        if (!file.isNone()) {
            // an object with write(): sys.stdout / sys.stderr, or the script's own
            Value w;
            if (!in.tryGetAttr(file, "write", w)) in.raise(in.attributeError, "'" + in.typeName(file) + "' object has no attribute 'write'");
            in.call(w, {makeStr(out)});
            return Value();
        }
        in.options().out(out);
        if (flush && in.options().flush) in.options().flush();
        return Value();
    });
    def("len", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("len() takes exactly one argument (" + std::to_string(a.pos.size()) + " given)");
        return Value::integer(in.len(a.pos[0]));
    });
    def("repr", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("repr() takes exactly one argument");
        return makeStr(in.repr(a.pos[0]));
    });
    def("ascii", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("ascii() takes exactly one argument");
        return makeStr(in.repr(a.pos[0]));
    });
    def("format", [](Interp& in, const Value&, CallArgs& a) {
        static Sig sig("format", "value, format_spec=");
        auto b = sig.bind(in, a);
        return makeStr(formatValue(in, b[0], b[1].isMissing() ? "" : toStr(in, b[1], "format_spec")));
    });
    def("abs", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("abs() takes exactly one argument");
        const Value& v = a.pos[0];
        if (v.isFloat()) return Value::real(std::fabs(v.f()));
        if (v.isIntLike()) {
            if (v.i() == INT64_MIN) return makeInt(-BigInt::fromInt(v.i()));
            return Value::integer(v.i() < 0 ? -v.i() : v.i());
        }
        if (isBigInt(v)) return v.as<BigIntObj>()->v.negative() ? makeInt(-v.as<BigIntObj>()->v) : v;
        if (v.isTensor()) return tensorUnary(in, "abs", v);
        Value m;
        if (v.is(OK::Instance) && in.tryGetAttr(v, "__abs__", m)) return in.call(m, std::vector<Value>{});
        in.raiseType("bad operand type for abs(): '" + in.typeName(v) + "'");
    });
    def("min", [](Interp& in, const Value&, CallArgs& a) { return minmax(in, a, false); });
    def("max", [](Interp& in, const Value&, CallArgs& a) { return minmax(in, a, true); });
    def("sum", [](Interp& in, const Value&, CallArgs& a) {
        static Sig sig("sum", "iterable, start=");
        auto b = sig.bind(in, a);
        Value acc = b[1].isMissing() ? Value::integer(0) : b[1];
        if (acc.isStr()) in.raiseType("sum() can't sum strings [use ''.join(seq) instead]");
        Value it = in.iter(b[0]);
        Value x;
        while (in.next(it, x)) acc = in.binary(BinOpKind::Add, acc, x);
        return acc;
    });
    def("round", [](Interp& in, const Value&, CallArgs& a) {
        static Sig sig("round", "number, ndigits=");
        auto b = sig.bind(in, a);
        const Value& v = b[0];
        bool noDigits = b[1].isMissing() || b[1].isNone();
        if (isBigInt(v) && noDigits) return v;
        if (v.isIntLike()) {
            if (noDigits) return Value::integer(v.i());
            int64_t nd = toInt(in, b[1], "ndigits");
            if (nd >= 0) return Value::integer(v.i());
            double r = pyRound(double(v.i()), nd);
            return Value::integer(int64_t(r));
        }
        if (v.isFloat()) {
            if (noDigits) {
                double r = std::nearbyint(v.f());
                if (std::isnan(r)) in.raiseValue("cannot convert float NaN to integer");
                if (std::isinf(r)) in.raise(in.overflowError, "cannot convert float infinity to integer");
                return toIntValue(in, Value::real(r), Value::missing());
            }
            return Value::real(pyRound(v.f(), toInt(in, b[1], "ndigits")));
        }
        if (v.isTensor()) {
            Value fn = in.getAttr(v, "round");
            CallArgs ca;
            if (!noDigits) ca.kw.emplace_back("decimals", b[1]);
            return in.call(fn, ca);
        }
        in.raiseType("type " + in.typeName(v) + " doesn't define __round__ method");
    });
    def("sorted", [](Interp& in, const Value&, CallArgs& a) {
        static Sig sig("sorted", "iterable, *, key=, reverse=");
        auto b = sig.bind(in, a);
        std::vector<Value> items = in.toVector(b[0]);
        sortValues(in, items, arg(b, 1), !b[2].isMissing() && in.truthy(b[2]));
        return makeList(std::move(items));
    });
    def("reversed", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("reversed expected 1 argument");
        const Value& v = a.pos[0];
        if (!(v.is(OK::List) || v.is(OK::Tuple) || v.is(OK::Range) || v.isStr() || v.is(OK::Dict) || v.is(OK::Instance)))
            in.raiseType("'" + in.typeName(v) + "' object is not reversible");
        auto items = std::make_shared<std::vector<Value>>(in.toVector(v));
        auto pos = std::make_shared<size_t>(items->size());
        return makeIterator([items, pos](Value& out) {
            if (*pos == 0) return false;
            out = (*items)[--*pos];
            return true;
        }, v.is(OK::List) ? "list_reverseiterator" : "reversed");
    });
    def("iter", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("iter() takes exactly one argument in model scripts");
        // an object of the script's whose __iter__ returns an iterator of the script's: that
        // object itself, as in Python (its type, its __len__, its other methods)
        if (a.pos[0].is(OK::Instance) && a.pos[0].as<InstanceObj>()->cls->lookup("__iter__")) {
            Value it = in.call(in.getAttr(a.pos[0], "__iter__"), std::vector<Value>{});
            if (it.is(OK::Instance) && it.as<InstanceObj>()->cls->lookup("__next__")) return it;
            if (it.is(OK::Iterator)) return it;
            in.raiseType("iter() returned non-iterator of type '" + in.typeName(it) + "'");
        }
        return in.iter(a.pos[0]);
    });
    def("next", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.empty() || a.pos.size() > 2) in.raiseType("next expected 1 or 2 arguments");
        if (a.pos[0].is(OK::Instance) && a.pos[0].as<InstanceObj>()->cls->lookup("__next__")) {
            // an iterator class of the script's: its __next__, StopIteration meaning the end
            Value nx = in.getAttr(a.pos[0], "__next__");
            if (a.pos.size() == 1) return in.call(nx, std::vector<Value>{});
            try {
                return in.call(nx, std::vector<Value>{});
            } catch (PyException& e) {
                if (in.isInstance(e.exc, in.stopIteration.get())) return a.pos[1];
                throw;
            }
        }
        if (!a.pos[0].is(OK::Iterator)) in.raiseType("'" + in.typeName(a.pos[0]) + "' object is not an iterator");
        Value out;
        if (in.next(a.pos[0], out)) return out;
        if (a.pos.size() == 2) return a.pos[1];
        in.raiseStopIteration(std::exchange(a.pos[0].as<IteratorObj>()->returned, Value()));
    });
    def("enumerate", [](Interp& in, const Value&, CallArgs& a) {
        static Sig sig("enumerate", "iterable, start=");
        auto b = sig.bind(in, a);
        Value it = in.iter(b[0]);
        auto i = std::make_shared<int64_t>(b[1].isMissing() ? 0 : toInt(in, b[1], "start"));
        Interp* ip = &in;
        return makeIterator([ip, it, i](Value& out) {
            Value x;
            if (!ip->next(it, x)) return false;
            out = makeTuple({Value::integer((*i)++), x});
            return true;
        }, "enumerate");
    });
    def("zip", [](Interp& in, const Value&, CallArgs& a) {
        bool strict = false;
        for (auto& [k, v] : a.kw) {
            if (k == "strict") strict = in.truthy(v);
            else in.raiseType("zip() got an unexpected keyword argument '" + k + "'");
        }
        std::vector<Value> its;
        for (auto& v : a.pos) its.push_back(in.iter(v));
        Interp* ip = &in;
        return makeIterator([ip, its, strict](Value& out) {
            if (its.empty()) return false;
            std::vector<Value> row;
            for (size_t k = 0; k < its.size(); ++k) {
                Value x;
                if (!ip->next(its[k], x)) {
                    if (strict && k > 0) ip->raiseValue("zip() argument " + std::to_string(k + 1) + " is shorter than argument 1");
                    return false;
                }
                row.push_back(x);
            }
            out = makeTuple(std::move(row));
            return true;
        }, "zip");
    });
    def("map", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() < 2) in.raiseType("map() must have at least two arguments.");
        Value fn = a.pos[0];
        std::vector<Value> its;
        for (size_t i = 1; i < a.pos.size(); ++i) its.push_back(in.iter(a.pos[i]));
        Interp* ip = &in;
        return makeIterator([ip, fn, its](Value& out) {
            std::vector<Value> args;
            for (auto& it : its) {
                Value x;
                if (!ip->next(it, x)) return false;
                args.push_back(x);
            }
            out = ip->call(fn, std::move(args));
            return true;
        }, "map");
    });
    def("filter", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2) in.raiseType("filter expected 2 arguments");
        Value fn = a.pos[0];
        Value it = in.iter(a.pos[1]);
        Interp* ip = &in;
        return makeIterator([ip, fn, it](Value& out) {
            Value x;
            while (ip->next(it, x)) {
                bool keep = fn.isNone() ? ip->truthy(x) : ip->truthy(ip->call(fn, {x}));
                if (keep) { out = x; return true; }
            }
            return false;
        }, "filter");
    });
    def("any", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("any() takes exactly one argument");
        Value it = in.iter(a.pos[0]);
        Value x;
        while (in.next(it, x)) if (in.truthy(x)) return Value::boolean(true);
        return Value::boolean(false);
    });
    def("all", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("all() takes exactly one argument");
        Value it = in.iter(a.pos[0]);
        Value x;
        while (in.next(it, x)) if (!in.truthy(x)) return Value::boolean(false);
        return Value::boolean(true);
    });
    def("isinstance", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2) in.raiseType("isinstance expected 2 arguments, got " + std::to_string(a.pos.size()));
        std::function<bool(const Value&)> check = [&](const Value& c) -> bool {
            if (const Value* m = in.metaMethod(c, "__instancecheck__")) return in.truthy(in.call(*m, {c, a.pos[0]}));
            if (c.is(OK::Class)) return in.isInstance(a.pos[0], c.as<ClassObj>());
            if (c.is(OK::Tuple)) {
                for (auto& x : c.as<TupleObj>()->items) if (check(x)) return true;
                return false;
            }
            if (c.is(OK::Opaque)) return false; // typing forms
            in.raiseType("isinstance() arg 2 must be a type, a tuple of types, or a union");
        };
        return Value::boolean(check(a.pos[1]));
    });
    def("issubclass", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2 || !a.pos[0].is(OK::Class)) in.raiseType("issubclass() arg 1 must be a class");
        std::function<bool(const Value&)> check = [&](const Value& c) -> bool {
            if (const Value* m = in.metaMethod(c, "__subclasscheck__")) return in.truthy(in.call(*m, {c, a.pos[0]}));
            if (c.is(OK::Class)) return a.pos[0].as<ClassObj>()->isSubclassOf(c.as<ClassObj>()) || c.as<ClassObj>() == in.objectCls.get();
            if (c.is(OK::Tuple)) {
                for (auto& x : c.as<TupleObj>()->items) if (check(x)) return true;
                return false;
            }
            in.raiseType("issubclass() arg 2 must be a class, a tuple of classes, or a union");
        };
        return Value::boolean(check(a.pos[1]));
    });
}

// getattr / setattr / hasattr / delattr, object's raw attribute operations, exit, super.
// Long: a table, one short def() per builtin.
static void installObjectProtocol(Interp& in) {
    auto def = [&in](const std::string& name, NativeFn fn) { in.setBuiltin(name, in.makeBuiltin(name, std::move(fn))); };
    auto checkAttrName = [](Interp& in, const Value& n) -> const std::string& {
        const std::string& s = toStr(in, n, "attribute name");
        static const char* blocked[] = {"__subclasses__", "__globals__", "__builtins__", "__code__"};
        for (auto* b : blocked)
            if (s == b) in.raise(in.attributeError, "'" + s + "' is not available in model scripts");
        return s;
    };
    def("getattr", [checkAttrName](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() < 2 || a.pos.size() > 3) in.raiseType("getattr expected 2 or 3 arguments");
        const std::string& n = checkAttrName(in, a.pos[1]);
        if (a.pos.size() == 2) return in.getAttr(a.pos[0], n); // once: a __getattr__'s own error propagates
        Value out;
        return in.tryGetAttr(a.pos[0], n, out) ? out : a.pos[2];
    });
    def("setattr", [checkAttrName](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 3) in.raiseType("setattr expected 3 arguments");
        in.setAttr(a.pos[0], checkAttrName(in, a.pos[1]), a.pos[2]);
        return Value();
    });
    def("delattr", [checkAttrName](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2) in.raiseType("delattr expected 2 arguments");
        in.delAttr(a.pos[0], checkAttrName(in, a.pos[1]));
        return Value();
    });
    def("hasattr", [checkAttrName](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2) in.raiseType("hasattr expected 2 arguments");
        Value out;
        return Value::boolean(in.tryGetAttr(a.pos[0], checkAttrName(in, a.pos[1]), out));
    });
    def("callable", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("callable() takes exactly one argument");
        const Value& v = a.pos[0];
        bool c = v.is(OK::Function) || v.is(OK::Builtin) || v.is(OK::BoundMethod) || v.is(OK::Class) ||
                 (v.is(OK::Instance) && v.as<InstanceObj>()->cls->lookup("__call__"));
        return Value::boolean(c);
    });
    def("id", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("id() takes exactly one argument");
        const Value& v = a.pos[0];
        return Value::integer(v.isObj() ? int64_t(reinterpret_cast<intptr_t>(v.obj())) : int64_t(hashValue(v)));
    });
    def("hash", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("hash() takes exactly one argument");
        try { return Value::integer(pyHash(a.pos[0])); }
        catch (UnhashableError& u) { in.raiseType("unhashable type: '" + u.typeName + "'"); }
    });
    def("divmod", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2) in.raiseType("divmod expected 2 arguments");
        return makeTuple({in.binary(BinOpKind::FloorDiv, a.pos[0], a.pos[1]), in.binary(BinOpKind::Mod, a.pos[0], a.pos[1])});
    });
    def("pow", [](Interp& in, const Value&, CallArgs& a) {
        static Sig sig("pow", "base, exp, mod=");
        auto b = sig.bind(in, a);
        if (!b[2].isMissing() && !b[2].isNone()) {
            int64_t base = toInt(in, b[0], "base"), e = toInt(in, b[1], "exp"), m = toInt(in, b[2], "mod");
            if (m == 0) in.raiseValue("pow() 3rd argument cannot be 0");
            if (e < 0) in.raiseValue("pow() negative exponent with modulus is not supported in model scripts");
            __int128 r = 1, x = ((base % m) + m) % m;
            while (e) { if (e & 1) r = r * x % m; x = x * x % m; e >>= 1; }
            int64_t res = int64_t(r);
            if (res != 0 && ((res < 0) != (m < 0))) res += m;
            return Value::integer(res);
        }
        return in.binary(BinOpKind::Pow, b[0], b[1]);
    });
    def("chr", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("chr() takes exactly one argument");
        int64_t c = toInt(in, a.pos[0], "chr() argument");
        if (c < 0 || c > 0x10FFFF) in.raiseValue("chr() arg not in range(0x110000)");
        std::string s;
        if (c < 0x80) s += char(c);
        else if (c < 0x800) { s += char(0xC0 | (c >> 6)); s += char(0x80 | (c & 0x3F)); }
        else if (c < 0x10000) { s += char(0xE0 | (c >> 12)); s += char(0x80 | ((c >> 6) & 0x3F)); s += char(0x80 | (c & 0x3F)); }
        else { s += char(0xF0 | (c >> 18)); s += char(0x80 | ((c >> 12) & 0x3F)); s += char(0x80 | ((c >> 6) & 0x3F)); s += char(0x80 | (c & 0x3F)); }
        return makeStr(s);
    });
    def("ord", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 1 || !a.pos[0].isStr()) in.raiseType("ord() expected a character");
        auto chars = utf8Chars(strOf(a.pos[0]));
        if (chars.size() != 1) in.raiseType("ord() expected a character, but string of length " + std::to_string(chars.size()) + " found");
        const std::string& c = chars[0];
        unsigned char c0 = c[0];
        int64_t cp = c.size() == 1 ? c0 : c.size() == 2 ? ((c0 & 0x1F) << 6) | (c[1] & 0x3F)
                   : c.size() == 3 ? ((c0 & 0x0F) << 12) | ((c[1] & 0x3F) << 6) | (c[2] & 0x3F)
                   : ((c0 & 0x07) << 18) | ((c[1] & 0x3F) << 12) | ((c[2] & 0x3F) << 6) | (c[3] & 0x3F);
        return Value::integer(cp);
    });
    def("hex", [](Interp& in, const Value&, CallArgs& a) { return makeStr(formatValue(in, Value::integer(toInt(in, a.pos.at(0), "hex() argument")), "#x")); });
    def("bin", [](Interp& in, const Value&, CallArgs& a) { return makeStr(formatValue(in, Value::integer(toInt(in, a.pos.at(0), "bin() argument")), "#b")); });
    def("oct", [](Interp& in, const Value&, CallArgs& a) { return makeStr(formatValue(in, Value::integer(toInt(in, a.pos.at(0), "oct() argument")), "#o")); });
    auto exitFn = [](Interp& in, const Value&, CallArgs& a) -> Value {
        Value e = in.makeException(in.systemExit, "");
        e.as<InstanceObj>()->attrs["args"] = makeTuple(a.pos);
        in.raiseExc(e);
    };
    def("exit", exitFn);
    def("quit", exitFn);
    // what a bytes literal evaluates to (the parser makes `b"..."` a call of it): not supported
    def("<bytes>", [](Interp& in, const Value&, CallArgs&) -> Value {
        in.raise(in.builtinClass("NotImplementedError"), "bytes literals are not supported in model scripts");
    });
    def("super", [](Interp& in, const Value&, CallArgs& a) {
        ClassObj* start = nullptr;
        Value self;
        if (a.pos.size() == 2) {
            if (!a.pos[0].is(OK::Class)) in.raiseType("super() argument 1 must be a type");
            start = a.pos[0].as<ClassObj>();
            self = a.pos[1];
        } else if (a.pos.empty()) {
            if (in.frames().empty() || !in.frames().back().owner) in.raise(in.runtimeError, "super(): no arguments");
            start = in.frames().back().owner;
            self = in.frames().back().firstArg;
        } else {
            in.raiseType("super() takes 0 or 2 arguments in model scripts");
        }
        auto sup = std::make_shared<OpaqueObj>();
        sup->cls = in.builtinClass("super");
        // the classes after `start` in the MRO of self's class (of self, for a classmethod's cls)
        ClassP selfCls = self.is(OK::Instance) ? self.as<InstanceObj>()->cls
                         : self.is(OK::Class) ? std::static_pointer_cast<ClassObj>(self.objp()) : ClassP();
        if (!selfCls || !selfCls->isSubclassOf(start)) selfCls.reset();
        ClassP from = start->base;
        const ClassObj* after = start;
        sup->getattrHook = [from, self, selfCls, after](Interp& in, const std::string& name, Value& out) {
            const Value* m = selfCls ? selfCls->lookupAfter(after, name) : from ? from->lookup(name) : nullptr;
            if (!m) return false;
            if (m->is(OK::Function)) {
                auto bm = std::make_shared<BoundMethodObj>();
                bm->self = self;
                bm->func = *m;
                out = Value(bm);
            } else if (m->is(OK::Builtin) && name == "__new__") {
                out = *m; // a static method: super().__new__(cls, ...) passes cls itself
            } else if (m->is(OK::Builtin)) {
                auto b = std::make_shared<BuiltinObj>(*m->as<BuiltinObj>());
                NativeFn inner = b->fn;
                b->fn = [inner, self](Interp& in2, const Value&, CallArgs& ca) {
                    ca.pos.insert(ca.pos.begin(), self);
                    return inner(in2, Value::missing(), ca);
                };
                b->self = self;
                out = Value(b);
            } else {
                out = *m;
                // staticmethod / classmethod / property found through super()
                if (out.is(OK::Opaque))
                    in.unwrapDescriptor(out, self.is(OK::Instance) ? self : Value::missing(),
                                        selfCls ? Value(selfCls) : self.is(OK::Class) ? self : Value());
            }
            (void)in;
            return true;
        };
        return Value(sup);
    });
    in.makeClass("super", in.objectCls);

}

// What model scripts cannot reach; staticmethod, classmethod, property; OrderedDict.
static void installRestricted(Interp& in) {
    auto def = [&in](const std::string& name, NativeFn fn) { in.setBuiltin(name, in.makeBuiltin(name, std::move(fn))); };
    // vars(obj): an instance's __dict__ (the caller's locals, vars(), stay out of reach)
    def("vars", [](Interp& in, const Value&, CallArgs& a) -> Value {
        if (a.pos.empty() && a.kw.empty())
            in.raise(in.builtinClass("PermissionError"), "'vars' without an argument is not available in model scripts: pass the object whose attributes you want");
        if (a.pos.size() != 1 || !a.kw.empty()) in.raiseType("vars expected at most 1 argument, got " + std::to_string(a.pos.size() + a.kw.size()));
        if (a.pos[0].is(OK::Instance)) return in.instanceDict(a.pos[0]);
        in.raiseType("vars() argument must have __dict__ attribute");
    });
    // Things a model script must not reach: clear errors instead of silent absence.
    for (const char* n : {"open", "eval", "exec", "compile", "__import__", "globals", "locals", "input", "breakpoint", "dir", "memoryview", "help", "bytes", "bytearray"}) {
        std::string name = n;
        def(name, [name](Interp& in, const Value&, CallArgs&) -> Value {
            in.raise(in.builtinClass("PermissionError"), "'" + name + "' is not available in model scripts: a model script cannot touch files, processes or the network, nor run code it builds");
        });
    }
    // Descriptors: staticmethod, classmethod, property (with .setter)
    in.staticMethodCls = in.makeClass("staticmethod", in.objectCls);
    in.classMethodCls = in.makeClass("classmethod", in.objectCls);
    in.propertyCls = in.makeClass("property", in.objectCls);
    auto wrapper = [](ClassP cls) {
        return [cls](Interp& in, CallArgs& a) {
            if (a.pos.size() != 1) in.raiseType(cls->name + " expected 1 argument");
            auto o = std::make_shared<OpaqueObj>();
            o->cls = cls;
            o->attrs["__func__"] = a.pos[0];
            return Value(o);
        };
    };
    in.staticMethodCls->ctor = wrapper(in.staticMethodCls);
    in.classMethodCls->ctor = wrapper(in.classMethodCls);
    in.propertyCls->ctor = [](Interp& in, CallArgs& a) {
        static Sig sig("property", "fget=, fset=, fdel=, doc=");
        auto b = sig.bind(in, a);
        auto o = std::make_shared<OpaqueObj>();
        o->cls = in.propertyCls;
        o->attrs["fget"] = b[0].isMissing() ? Value() : b[0];
        o->attrs["fset"] = b[1].isMissing() ? Value() : b[1];
        return Value(o);
    };
    in.addMethod(in.propertyCls, "setter", [](Interp&, const Value&, CallArgs& a) {
        auto* old = a.pos.at(0).as<OpaqueObj>();
        auto o = std::make_shared<OpaqueObj>(*old);
        o->attrs["fset"] = a.pos.at(1);
        return Value(o);
    });
    in.addMethod(in.propertyCls, "getter", [](Interp&, const Value&, CallArgs& a) {
        auto* old = a.pos.at(0).as<OpaqueObj>();
        auto o = std::make_shared<OpaqueObj>(*old);
        o->attrs["fget"] = a.pos.at(1);
        return Value(o);
    });
    for (auto* n : {"staticmethod", "classmethod", "property"}) in.setBuiltin(n, Value(in.builtinClass(n)));

    // collections.OrderedDict: a dict that prints as OrderedDict([...])
    in.orderedDictCls = in.makeClass("OrderedDict", in.dictCls, "collections");
    in.orderedDictCls->ctor = [](Interp& in, CallArgs& a) {
        Value d = in.dictCls->ctor(in, a);
        d.as<DictObj>()->orderedRepr = true;
        return d;
    };
    // the module itself is core/script/stdlib/collections.py, given OrderedDict as _OrderedDict

    in.setBuiltin("NotImplemented", in.notImplemented);
    in.setBuiltin("__name__", makeStr("__main__"));

}

// str's methods.
// Long: a table, one short entry per method.
static void installStrMethods(Interp& in) {
    // ---- str methods
    auto& sm = in.methodsOf(OK::Str);
    auto S = [](const Value& self) -> const std::string& { return strOf(self); };
    sm["join"] = [S](Interp& in, const Value& self, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("join() takes exactly one argument");
        std::string out;
        bool first = true;
        size_t i = 0;
        for (auto& v : in.toVector(a.pos[0])) {
            if (!v.isStr()) in.raiseType("sequence item " + std::to_string(i) + ": expected str instance, " + in.typeName(v) + " found");
            if (!first) out += S(self);
            first = false;
            out += strOf(v);
            ++i;
        }
        return makeStr(out);
    };
    sm["split"] = [S](Interp& in, const Value& self, CallArgs& a) {
        static Sig sig("split", "sep=, maxsplit=");
        auto b = sig.bind(in, a);
        return splitStr(in, S(self), b[0], b[1].isMissing() ? -1 : toInt(in, b[1], "maxsplit"), false);
    };
    sm["rsplit"] = [S](Interp& in, const Value& self, CallArgs& a) {
        static Sig sig("rsplit", "sep=, maxsplit=");
        auto b = sig.bind(in, a);
        return splitStr(in, S(self), b[0], b[1].isMissing() ? -1 : toInt(in, b[1], "maxsplit"), true);
    };
    sm["splitlines"] = [S](Interp& in, const Value& self, CallArgs& a) {
        static Sig sig("splitlines", "keepends=");
        auto b = sig.bind(in, a);
        bool keep = !b[0].isMissing() && in.truthy(b[0]);
        // Unicode's line boundaries: \n \r \r\n \v \f \x1c \x1d \x1e \x85 \u2028 \u2029
        auto breakAt = [](const std::string& s, size_t i) -> size_t {
            size_t n = 1;
            uint32_t cp = unicode::decodeAt(s, i, n);
            if (cp == '\r' && i + 1 < s.size() && s[i + 1] == '\n') return 2;
            bool brk = cp == '\n' || cp == '\r' || cp == 0x0b || cp == 0x0c || (cp >= 0x1c && cp <= 0x1e) || cp == 0x85 || cp == 0x2028 || cp == 0x2029;
            return brk ? n : 0;
        };
        std::vector<Value> out;
        const std::string& s = S(self);
        size_t i = 0;
        while (i < s.size()) {
            size_t j = i, n = 0, len = 1;
            while (j < s.size() && !(n = breakAt(s, j))) {
                unicode::decodeAt(s, j, len);
                j += len;
            }
            out.push_back(makeStr(s.substr(i, j - i + (keep ? n : 0))));
            i = j + n;
        }
        return makeList(std::move(out));
    };
    sm["strip"] = [S](Interp& in, const Value& self, CallArgs& a) { static Sig sig("strip", "chars="); auto b = sig.bind(in, a); return makeStr(stripChars(S(self), b[0], true, true)); };
    sm["lstrip"] = [S](Interp& in, const Value& self, CallArgs& a) { static Sig sig("lstrip", "chars="); auto b = sig.bind(in, a); return makeStr(stripChars(S(self), b[0], true, false)); };
    sm["rstrip"] = [S](Interp& in, const Value& self, CallArgs& a) { static Sig sig("rstrip", "chars="); auto b = sig.bind(in, a); return makeStr(stripChars(S(self), b[0], false, true)); };
    sm["replace"] = [S](Interp& in, const Value& self, CallArgs& a) {
        static Sig sig("replace", "old, new, count=");
        auto b = sig.bind(in, a);
        const std::string& s = S(self);
        const std::string& o = toStr(in, b[0], "replace() argument 1");
        const std::string& n = toStr(in, b[1], "replace() argument 2");
        int64_t count = b[2].isMissing() ? -1 : toInt(in, b[2], "count");
        std::string out;
        if (o.empty()) {
            auto chars = utf8Chars(s);
            int64_t done = 0;
            for (auto& c : chars) {
                if (count < 0 || done < count) { out += n; ++done; }
                out += c;
            }
            if (count < 0 || done < count) out += n;
            in.checkAlloc(int64_t(out.size()), "string");
            return makeStr(out);
        }
        size_t pos = 0;
        int64_t done = 0;
        while (count < 0 || done < count) {
            size_t f = s.find(o, pos);
            if (f == std::string::npos) break;
            out += s.substr(pos, f - pos) + n;
            pos = f + o.size();
            ++done;
            if ((done & 0xfff) == 0) in.checkAlloc(int64_t(out.size()), "string");
        }
        out += s.substr(pos);
        return makeStr(out);
    };
    // str methods' optional start and end (arguments 1 and 2) as character offsets into n characters
    auto charRange = [](Interp& in, CallArgs& a, int64_t n, int64_t& b, int64_t& e) {
        auto norm = [&](size_t k, int64_t dflt) {
            if (a.pos.size() <= k || a.pos[k].isNone()) return dflt;
            int64_t v = isBigInt(a.pos[k]) ? clampedSliceInt(a.pos[k]) : toInt(in, a.pos[k], "slice indices");
            if (v < 0) v = std::max<int64_t>(0, v + n);
            return std::min(v, n);
        };
        b = norm(1, 0);
        e = norm(2, n);
    };
    auto affix = [S, charRange](bool start) {
        return [S, start, charRange](Interp& in, const Value& self, CallArgs& a) {
            if (a.pos.empty() || a.pos.size() > 3) in.raiseType(std::string(start ? "startswith" : "endswith") + "() takes from 1 to 3 arguments");
            std::string s = S(self);
            if (a.pos.size() > 1) {
                // s[start:end], in characters
                auto chars = utf8Chars(s);
                int64_t n = int64_t(chars.size());
                int64_t b = 0, e = n;
                charRange(in, a, n, b, e);
                std::string cut;
                for (int64_t i = b; i < e; ++i) cut += chars[size_t(i)];
                if (b > n || b > e) return Value::boolean(false);
                s = cut;
            }
            auto test = [&](const Value& p) {
                const std::string& x = toStr(in, p, start ? "startswith first arg" : "endswith first arg");
                if (x.size() > s.size()) return false;
                return start ? s.compare(0, x.size(), x) == 0 : s.compare(s.size() - x.size(), x.size(), x) == 0;
            };
            if (a.pos[0].is(OK::Tuple)) {
                for (auto& p : a.pos[0].as<TupleObj>()->items) if (test(p)) return Value::boolean(true);
                return Value::boolean(false);
            }
            return Value::boolean(test(a.pos[0]));
        };
    };
    sm["startswith"] = affix(true);
    sm["endswith"] = affix(false);
    auto finder = [S, charRange](bool rev, bool raise) {
        return [S, rev, raise, charRange](Interp& in, const Value& self, CallArgs& a) {
            if (a.pos.empty() || a.pos.size() > 3) in.raiseType("find() takes from 1 to 3 arguments");
            // work on characters so start/end and the result are character offsets
            auto chars = utf8Chars(S(self));
            int64_t n = int64_t(chars.size());
            int64_t start = 0, end = n;
            charRange(in, a, n, start, end);
            const std::string& x = toStr(in, a.pos[0], "must be str");
            auto sub = utf8Chars(x);
            int64_t m = int64_t(sub.size()), found = -1;
            for (int64_t i = rev ? end - m : start; rev ? i >= start : i + m <= end; i += rev ? -1 : 1) {
                bool ok = true;
                for (int64_t j = 0; j < m && ok; ++j) ok = chars[size_t(i + j)] == sub[size_t(j)];
                if (ok) { found = i; break; }
            }
            if (found < 0 && raise) in.raiseValue("substring not found");
            return Value::integer(found);
        };
    };
    sm["find"] = finder(false, false);
    sm["rfind"] = finder(true, false);
    sm["index"] = finder(false, true);
    sm["rindex"] = finder(true, true);
    sm["count"] = [S, charRange](Interp& in, const Value& self, CallArgs& a) {
        if (a.pos.empty() || a.pos.size() > 3) in.raiseType("count() takes from 1 to 3 arguments");
        const std::string& x = toStr(in, a.pos[0], "must be str");
        if (a.pos.size() == 1) { // the whole string: bytes will do
            const std::string& s = S(self);
            if (x.empty()) return Value::integer(utf8Length(s) + 1);
            int64_t n = 0;
            for (size_t p = s.find(x); p != std::string::npos; p = s.find(x, p + x.size())) ++n;
            return Value::integer(n);
        }
        // start/end are character offsets, clamped as slices are
        auto chars = utf8Chars(S(self));
        int64_t len = int64_t(chars.size()), start = 0, end = len;
        charRange(in, a, len, start, end);
        auto sub = utf8Chars(x);
        int64_t m = int64_t(sub.size()), n = 0;
        if (start > len || end < start) return Value::integer(0);
        if (m == 0) return Value::integer(end - start + 1);
        for (int64_t i = start; i + m <= end;) {
            bool ok = true;
            for (int64_t j = 0; j < m && ok; ++j) ok = chars[size_t(i + j)] == sub[size_t(j)];
            if (ok) { ++n; i += m; } else ++i;
        }
        return Value::integer(n);
    };
    auto pad = [S](char how) {
        return [S, how](Interp& in, const Value& self, CallArgs& a) {
            if (a.pos.empty()) in.raiseType("expected at least 1 argument");
            int64_t width = toInt(in, a.pos[0], "width");
            std::string fill = a.pos.size() > 1 ? toStr(in, a.pos[1], "fill character") : " ";
            std::string spec = fill + std::string(1, how) + std::to_string(std::max<int64_t>(width, 0));
            return makeStr(formatValue(in, self, spec));
        };
    };
    sm["center"] = pad('^');
    sm["ljust"] = pad('<');
    sm["rjust"] = pad('>');
    sm["zfill"] = [S](Interp& in, const Value& self, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("zfill() takes exactly one argument");
        std::string s = S(self);
        int64_t width = toInt(in, a.pos[0], "width");
        int64_t len = utf8Length(s);
        if (len >= width) return makeStr(s);
        std::string sign;
        if (!s.empty() && (s[0] == '+' || s[0] == '-')) { sign = s.substr(0, 1); s = s.substr(1); }
        return makeStr(sign + std::string(size_t(width - len), '0') + s);
    };
    sm["format"] = [S](Interp& in, const Value& self, CallArgs& a) { return makeStr(strFormat(in, S(self), a)); };
    sm["removeprefix"] = [S](Interp& in, const Value& self, CallArgs& a) {
        const std::string& s = S(self);
        const std::string& p = toStr(in, a.pos.at(0), "prefix");
        return makeStr(s.compare(0, p.size(), p) == 0 ? s.substr(p.size()) : s);
    };
    sm["removesuffix"] = [S](Interp& in, const Value& self, CallArgs& a) {
        const std::string& s = S(self);
        const std::string& p = toStr(in, a.pos.at(0), "suffix");
        return makeStr(!p.empty() && s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0 ? s.substr(0, s.size() - p.size()) : s);
    };
    installStrUnicodeMethods(in);
}

// list.index / tuple.index's optional start and end, clamped as slice bounds are.
static std::pair<size_t, size_t> indexBounds(Interp& in, const CallArgs& a, size_t n) {
    if (a.pos.empty()) in.raiseType("index expected at least 1 argument, got 0");
    if (a.pos.size() > 3) in.raiseType("index expected at most 3 arguments, got " + std::to_string(a.pos.size()));
    auto bound = [&](size_t k, int64_t dflt) {
        if (k >= a.pos.size()) return dflt;
        int64_t v = toInt(in, a.pos[k], "slice indices");
        if (v < 0) v = std::max<int64_t>(0, v + int64_t(n));
        return std::min<int64_t>(v, int64_t(n));
    };
    return {size_t(bound(1, 0)), size_t(bound(2, int64_t(n)))};
}

// List and tuple methods.
static void installSequenceMethods(Interp& in) {
    // ---- list methods
    auto& lm = in.methodsOf(OK::List);
    auto L = [](const Value& self) -> std::vector<Value>& { return self.as<ListObj>()->items; };
    lm["append"] = [L](Interp& in, const Value& self, CallArgs& a) {
        if (a.pos.size() != 1) in.raiseType("list.append() takes exactly one argument (" + std::to_string(a.pos.size()) + " given)");
        auto& items = L(self);
        items.push_back(a.pos[0]);
        if ((items.size() & 0xfffff) == 0) in.checkAlloc(int64_t(items.size() * sizeof(Value)), "list");
        return Value();
    };
    lm["extend"] = [L](Interp& in, const Value& self, CallArgs& a) {
        auto src = in.toVector(a.pos.at(0));
        auto& items = L(self);
        items.insert(items.end(), src.begin(), src.end());
        return Value();
    };
    lm["insert"] = [L](Interp& in, const Value& self, CallArgs& a) {
        if (a.pos.size() != 2) in.raiseType("insert expected 2 arguments");
        auto& items = L(self);
        int64_t i = toInt(in, a.pos[0], "index"), n = int64_t(items.size());
        if (i < 0) i = std::max<int64_t>(0, i + n);
        if (i > n) i = n;
        items.insert(items.begin() + i, a.pos[1]);
        return Value();
    };
    lm["pop"] = [L](Interp& in, const Value& self, CallArgs& a) {
        auto& items = L(self);
        if (items.empty()) in.raise(in.indexError, "pop from empty list");
        int64_t i = a.pos.empty() ? -1 : toInt(in, a.pos[0], "index"), n = int64_t(items.size());
        if (i < 0) i += n;
        if (i < 0 || i >= n) in.raise(in.indexError, "pop index out of range");
        Value v = items[i];
        items.erase(items.begin() + i);
        return v;
    };
    lm["remove"] = [L](Interp& in, const Value& self, CallArgs& a) {
        auto& items = L(self);
        for (size_t i = 0; i < items.size(); ++i)
            if (in.equals(items[i], a.pos.at(0))) { items.erase(items.begin() + i); return Value(); }
        in.raiseValue("list.remove(x): x not in list");
    };
    lm["index"] = [L](Interp& in, const Value& self, CallArgs& a) {
        auto& items = L(self);
        auto [lo, hi] = indexBounds(in, a, items.size());
        for (size_t i = lo; i < hi && i < items.size(); ++i)
            if (in.equals(items[i], a.pos.at(0))) return Value::integer(int64_t(i));
        in.raiseValue(in.repr(a.pos.at(0)) + " is not in list");
    };
    lm["count"] = [L](Interp& in, const Value& self, CallArgs& a) {
        int64_t n = 0;
        for (auto& v : L(self)) if (in.equals(v, a.pos.at(0))) ++n;
        return Value::integer(n);
    };
    lm["sort"] = [L](Interp& in, const Value& self, CallArgs& a) {
        static Sig sig("sort", "*, key=, reverse=");
        auto b = sig.bind(in, a);
        sortValues(in, L(self), arg(b, 0), !b[1].isMissing() && in.truthy(b[1]));
        return Value();
    };
    lm["reverse"] = [L](Interp&, const Value& self, CallArgs&) { std::reverse(L(self).begin(), L(self).end()); return Value(); };
    lm["copy"] = [L](Interp&, const Value& self, CallArgs&) { return makeList(L(self)); };
    lm["clear"] = [L](Interp&, const Value& self, CallArgs&) { L(self).clear(); return Value(); };

    auto& tm = in.methodsOf(OK::Tuple);
    tm["index"] = [](Interp& in, const Value& self, CallArgs& a) {
        auto& items = self.as<TupleObj>()->items;
        auto [lo, hi] = indexBounds(in, a, items.size());
        for (size_t i = lo; i < hi && i < items.size(); ++i)
            if (in.equals(items[i], a.pos.at(0))) return Value::integer(int64_t(i));
        in.raiseValue("tuple.index(x): x not in tuple");
    };
    tm["count"] = [](Interp& in, const Value& self, CallArgs& a) {
        int64_t n = 0;
        for (auto& v : self.as<TupleObj>()->items) if (in.equals(v, a.pos.at(0))) ++n;
        return Value::integer(n);
    };

}

// Dict methods and views.
static void installDictMethods(Interp& in) {
    // ---- dict methods
    auto& dm = in.methodsOf(OK::Dict);
    auto D = [](const Value& self) -> ValueMap& { return self.as<DictObj>()->map; };
    auto view = [D](int which, const char* name) {
        return [D, which, name](Interp&, const Value& self, CallArgs&) {
            std::vector<Value> out;
            for (auto& e : D(self).entries()) {
                if (!e.live) continue;
                out.push_back(which == 0 ? e.key : which == 1 ? e.val : makeTuple({e.key, e.val}));
            }
            Value l = makeList(std::move(out));
            l.as<ListObj>()->viewName = name;
            return l;
        };
    };
    dm["keys"] = view(0, "dict_keys");
    dm["values"] = view(1, "dict_values");
    dm["items"] = view(2, "dict_items");
    dm["get"] = [D](Interp& in, const Value& self, CallArgs& a) {
        if (a.pos.empty() || a.pos.size() > 2) in.raiseType("get expected 1 or 2 arguments");
        Value* v = nullptr;
        try { v = D(self).find(a.pos[0]); }
        catch (UnhashableError& u) { in.raiseType("unhashable type: '" + u.typeName + "'"); }
        return v ? *v : (a.pos.size() > 1 ? a.pos[1] : Value());
    };
    dm["pop"] = [D](Interp& in, const Value& self, CallArgs& a) {
        if (a.pos.empty()) in.raiseType("pop expected at least 1 argument, got 0");
        Value* v = D(self).find(a.pos[0]);
        if (!v) {
            if (a.pos.size() > 1) return a.pos[1];
            Value kv = in.makeException(in.keyError, "");
            kv.as<InstanceObj>()->attrs["args"] = makeTuple({a.pos[0]});
            in.raiseExc(kv);
        }
        Value r = *v;
        D(self).erase(a.pos[0]);
        return r;
    };
    dm["popitem"] = [D](Interp& in, const Value& self, CallArgs&) {
        auto& es = D(self).entries();
        for (size_t i = es.size(); i-- > 0;) {
            if (!es[i].live) continue;
            Value r = makeTuple({es[i].key, es[i].val});
            D(self).erase(es[i].key);
            return r;
        }
        in.raise(in.keyError, "popitem(): dictionary is empty");
    };
    dm["setdefault"] = [D](Interp& in, const Value& self, CallArgs& a) {
        if (a.pos.empty()) in.raiseType("setdefault expected at least 1 argument");
        Value* v = D(self).find(a.pos[0]);
        if (v) return *v;
        Value d = a.pos.size() > 1 ? a.pos[1] : Value();
        D(self).set(a.pos[0], d);
        return d;
    };
    dm["update"] = [D](Interp& in, const Value& self, CallArgs& a) {
        if (!a.pos.empty()) {
            CallArgs ca;
            ca.pos.push_back(a.pos[0]);
            Value other = in.dictCls->ctor(in, ca);
            for (auto& e : D(other).entries()) if (e.live) D(self).set(e.key, e.val);
        }
        for (auto& [k, v] : a.kw) D(self).set(makeStr(k), v);
        return Value();
    };
    dm["copy"] = [D](Interp&, const Value& self, CallArgs&) {
        auto d = std::make_shared<DictObj>();
        d->orderedRepr = self.as<DictObj>()->orderedRepr;
        for (auto& e : D(self).entries()) if (e.live) d->map.set(e.key, e.val);
        return Value(d);
    };
    dm["clear"] = [D](Interp&, const Value& self, CallArgs&) { D(self).clear(); return Value(); };
    // an instance's __dict__ changed by a method: its attributes follow
    for (const char* name : {"pop", "popitem", "setdefault", "update", "clear"}) {
        NativeFn f = dm[name];
        dm[name] = [f](Interp& in, const Value& self, CallArgs& a) {
            Value r = f(in, self, a);
            if (self.as<DictObj>()->attrOwner.lock()) Interp::dictChanged(self.as<DictObj>());
            return r;
        };
    }
    in.dictCls->attrs["fromkeys"] = in.makeBuiltin("fromkeys", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.empty() || a.pos.size() > 2) in.raiseType("fromkeys expected 1 or 2 arguments");
        auto d = std::make_shared<DictObj>();
        Value fill = a.pos.size() > 1 ? a.pos[1] : Value();
        for (auto& k : in.toVector(a.pos[0])) {
            try { d->map.set(k, fill); }
            catch (UnhashableError& u) { in.raiseType("unhashable type: '" + u.typeName + "'"); }
        }
        return Value(d);
    });

}

// Set methods.
static void installSetMethods(Interp& in) {
    // ---- set methods
    auto& stm = in.methodsOf(OK::Set);
    auto SM = [](const Value& self) -> ValueMap& { return self.as<SetObj>()->map; };
    stm["add"] = [SM](Interp& in, const Value& self, CallArgs& a) {
        try { SM(self).set(a.pos.at(0), Value()); }
        catch (UnhashableError& u) { in.raiseType("unhashable type: '" + u.typeName + "'"); }
        return Value();
    };
    stm["remove"] = [SM](Interp& in, const Value& self, CallArgs& a) {
        if (!SM(self).erase(a.pos.at(0))) {
            Value kv = in.makeException(in.keyError, "");
            kv.as<InstanceObj>()->attrs["args"] = makeTuple({a.pos[0]});
            in.raiseExc(kv);
        }
        return Value();
    };
    stm["discard"] = [SM](Interp&, const Value& self, CallArgs& a) { SM(self).erase(a.pos.at(0)); return Value(); };
    stm["pop"] = [SM](Interp& in, const Value& self, CallArgs&) {
        std::vector<Value> items = in.toVector(self);
        if (items.empty()) in.raise(in.keyError, "pop from an empty set");
        SM(self).erase(items[0]);
        return items[0];
    };
    stm["update"] = [SM](Interp& in, const Value& self, CallArgs& a) {
        for (auto& src : a.pos)
            for (auto& v : in.toVector(src)) SM(self).set(v, Value());
        return Value();
    };
    auto setop = [](BinOpKind op) {
        return [op](Interp& in, const Value& self, CallArgs& a) {
            Value acc = self;
            for (auto& src : a.pos) acc = setOperation(in, op, acc, src.is(OK::Set) ? src : newSet(in, in.toVector(src)));
            if (a.pos.empty()) acc = newSet(in, in.toVector(self));
            return acc;
        };
    };
    stm["union"] = setop(BinOpKind::BitOr);
    stm["intersection"] = setop(BinOpKind::BitAnd);
    stm["difference"] = setop(BinOpKind::Sub);
    stm["symmetric_difference"] = setop(BinOpKind::BitXor);
    stm["copy"] = [](Interp& in, const Value& self, CallArgs&) { return newSet(in, in.toVector(self)); };
    stm["clear"] = [SM](Interp&, const Value& self, CallArgs&) { SM(self).clear(); return Value(); };
    stm["issubset"] = [](Interp& in, const Value& self, CallArgs& a) { return setCompare(in, CmpOpKind::LtE, self, newSet(in, in.toVector(a.pos.at(0)))); };
    stm["issuperset"] = [](Interp& in, const Value& self, CallArgs& a) { return setCompare(in, CmpOpKind::GtE, self, newSet(in, in.toVector(a.pos.at(0)))); };

}

// Int and float methods.
static void installNumberMethods(Interp& in) {
    // ---- numbers
    in.methodsOfPrim(Value::T::Float)["is_integer"] = [](Interp&, const Value& self, CallArgs&) {
        return Value::boolean(std::isfinite(self.f()) && self.f() == std::floor(self.f()));
    };
    in.methodsOfPrim(Value::T::Int)["bit_length"] = [](Interp&, const Value& self, CallArgs&) {
        uint64_t x = self.i() < 0 ? uint64_t(-(self.i() + 1)) + 1 : uint64_t(self.i());
        int64_t n = 0;
        while (x) { ++n; x >>= 1; }
        return Value::integer(n);
    };
    in.setAttrHook(OK::Slice, [](Interp&, const Value& self, const std::string& name, Value& out) {
        auto* s = self.as<SliceObj>();
        if (name == "start") { out = s->start; return true; }
        if (name == "stop") { out = s->stop; return true; }
        if (name == "step") { out = s->step; return true; }
        return false;
    });
    in.setAttrHook(OK::Range, [](Interp&, const Value& self, const std::string& name, Value& out) {
        auto* r = self.as<RangeObj>();
        if (name == "start") { out = Value::integer(r->start); return true; }
        if (name == "stop") { out = Value::integer(r->stop); return true; }
        if (name == "step") { out = Value::integer(r->step); return true; }
        return false;
    });

}

// The math module.
static void installMath(Interp& in) {
    // ---- math
    Value math = in.newModule("math");
    auto& mv = math.as<ModuleObj>()->ns->vars;
    mv["pi"] = Value::real(M_PI);
    mv["e"] = Value::real(M_E);
    mv["tau"] = Value::real(2 * M_PI);
    mv["inf"] = Value::real(INFINITY);
    mv["nan"] = Value::real(NAN);
    auto m1 = [&](const std::string& name, double (*f)(double), bool (*domain)(double)) {
        mv[name] = in.makeBuiltin(name, [name, f, domain](Interp& in, const Value&, CallArgs& a) {
            if (a.pos.size() != 1) in.raiseType("math." + name + "() takes exactly one argument (" + std::to_string(a.pos.size()) + " given)");
            double x = toFloat(in, a.pos[0], "must be real number");
            if (domain && !domain(x)) in.raiseValue("math domain error");
            double r = f(x);
            if (std::isinf(r) && std::isfinite(x)) in.raise(in.overflowError, "math range error");
            return Value::real(r);
        });
    };
    m1("sqrt", [](double x) { return std::sqrt(x); }, [](double x) { return x >= 0 || std::isnan(x); });
    m1("exp", [](double x) { return std::exp(x); }, nullptr);
    m1("log2", [](double x) { return std::log2(x); }, [](double x) { return x > 0 || std::isnan(x); });
    m1("log10", [](double x) { return std::log10(x); }, [](double x) { return x > 0 || std::isnan(x); });
    m1("log1p", [](double x) { return std::log1p(x); }, [](double x) { return x > -1 || std::isnan(x); });
    m1("expm1", [](double x) { return std::expm1(x); }, nullptr);
    m1("sin", [](double x) { return std::sin(x); }, [](double x) { return !std::isinf(x); });
    m1("cos", [](double x) { return std::cos(x); }, [](double x) { return !std::isinf(x); });
    m1("tan", [](double x) { return std::tan(x); }, [](double x) { return !std::isinf(x); });
    m1("asin", [](double x) { return std::asin(x); }, [](double x) { return (x >= -1 && x <= 1) || std::isnan(x); });
    m1("acos", [](double x) { return std::acos(x); }, [](double x) { return (x >= -1 && x <= 1) || std::isnan(x); });
    m1("atan", [](double x) { return std::atan(x); }, nullptr);
    m1("sinh", [](double x) { return std::sinh(x); }, nullptr);
    m1("cosh", [](double x) { return std::cosh(x); }, nullptr);
    m1("tanh", [](double x) { return std::tanh(x); }, nullptr);
    m1("erf", [](double x) { return std::erf(x); }, nullptr);
    m1("erfc", [](double x) { return std::erfc(x); }, nullptr);
    m1("fabs", [](double x) { return std::fabs(x); }, nullptr);
    m1("gamma", [](double x) { return std::tgamma(x); }, [](double x) { return !(x <= 0 && x == std::floor(x)); });
    m1("lgamma", [](double x) { return std::lgamma(x); }, [](double x) { return !(x <= 0 && x == std::floor(x)); });
    m1("degrees", [](double x) { return x * 180.0 / M_PI; }, nullptr);
    m1("radians", [](double x) { return x * M_PI / 180.0; }, nullptr);
    mv["log"] = in.makeBuiltin("log", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.empty() || a.pos.size() > 2) in.raiseType("log expected 1 or 2 arguments");
        double x = toFloat(in, a.pos[0], "must be real number");
        if (x <= 0) in.raiseValue("math domain error");
        double r = std::log(x);
        if (a.pos.size() == 2) {
            double b = toFloat(in, a.pos[1], "must be real number");
            if (b <= 0) in.raiseValue("math domain error");
            if (b == 1) in.raise(in.zeroDivisionError, "float division by zero");
            r /= std::log(b);
        }
        return Value::real(r);
    });
    auto intRound = [&](const std::string& name, double (*f)(double)) {
        mv[name] = in.makeBuiltin(name, [f](Interp& in, const Value&, CallArgs& a) {
            if (a.pos.size() != 1) in.raiseType("expected one argument");
            if (a.pos[0].isIntLike()) return Value::integer(a.pos[0].i());
            double x = toFloat(in, a.pos[0], "must be real number");
            return toIntValue(in, Value::real(f(x)), Value::missing());
        });
    };
    intRound("floor", [](double x) { return std::floor(x); });
    intRound("ceil", [](double x) { return std::ceil(x); });
    intRound("trunc", [](double x) { return std::trunc(x); });
    mv["pow"] = in.makeBuiltin("pow", [](Interp& in, const Value&, CallArgs& a) {
        if (a.pos.size() != 2) in.raiseType("pow expected 2 arguments");
        double x = toFloat(in, a.pos[0], "must be real number"), y = toFloat(in, a.pos[1], "must be real number");
        if ((x == 0 && y < 0) || (x < 0 && y != std::floor(y) && std::isfinite(y))) in.raiseValue("math domain error");
        return Value::real(std::pow(x, y));
    });
    mv["atan2"] = in.makeBuiltin("atan2", [](Interp& in, const Value&, CallArgs& a) {
        return Value::real(std::atan2(toFloat(in, a.pos.at(0), "y"), toFloat(in, a.pos.at(1), "x")));
    });
    mv["hypot"] = in.makeBuiltin("hypot", [](Interp& in, const Value&, CallArgs& a) {
        double s = 0;
        for (auto& v : a.pos) { double x = toFloat(in, v, "must be real number"); s += x * x; }
        return Value::real(std::sqrt(s));
    });
    mv["copysign"] = in.makeBuiltin("copysign", [](Interp& in, const Value&, CallArgs& a) {
        return Value::real(std::copysign(toFloat(in, a.pos.at(0), "x"), toFloat(in, a.pos.at(1), "y")));
    });
    mv["isnan"] = in.makeBuiltin("isnan", [](Interp& in, const Value&, CallArgs& a) { return Value::boolean(std::isnan(toFloat(in, a.pos.at(0), "x"))); });
    mv["isinf"] = in.makeBuiltin("isinf", [](Interp& in, const Value&, CallArgs& a) { return Value::boolean(std::isinf(toFloat(in, a.pos.at(0), "x"))); });
    mv["isfinite"] = in.makeBuiltin("isfinite", [](Interp& in, const Value&, CallArgs& a) { return Value::boolean(std::isfinite(toFloat(in, a.pos.at(0), "x"))); });
    mv["isclose"] = in.makeBuiltin("isclose", [](Interp& in, const Value&, CallArgs& a) {
        static Sig sig("isclose", "a, b, *, rel_tol=, abs_tol=");
        auto b = sig.bind(in, a);
        double x = toFloat(in, b[0], "a"), y = toFloat(in, b[1], "b");
        double rt = b[2].isMissing() ? 1e-9 : toFloat(in, b[2], "rel_tol"), at = b[3].isMissing() ? 0.0 : toFloat(in, b[3], "abs_tol");
        if (x == y) return Value::boolean(true);
        if (std::isinf(x) || std::isinf(y)) return Value::boolean(false);
        double d = std::fabs(x - y);
        return Value::boolean(d <= std::fabs(rt * y) || d <= std::fabs(rt * x) || d <= at);
    });
    mv["fsum"] = in.makeBuiltin("fsum", [](Interp& in, const Value&, CallArgs& a) {
        // Neumaier summation: exact enough for the values scripts sum.
        double s = 0, c = 0;
        for (auto& v : in.toVector(a.pos.at(0))) {
            double x = toFloat(in, v, "must be real number");
            double t = s + x;
            c += std::fabs(s) >= std::fabs(x) ? (s - t) + x : (x - t) + s;
            s = t;
        }
        return Value::real(s + c);
    });
    mv["prod"] = in.makeBuiltin("prod", [](Interp& in, const Value&, CallArgs& a) {
        static Sig sig("prod", "iterable, *, start=");
        auto b = sig.bind(in, a);
        Value acc = b[1].isMissing() ? Value::integer(1) : b[1];
        for (auto& v : in.toVector(b[0])) acc = in.binary(BinOpKind::Mult, acc, v);
        return acc;
    });
    mv["gcd"] = in.makeBuiltin("gcd", [](Interp& in, const Value&, CallArgs& a) {
        int64_t g = 0;
        for (auto& v : a.pos) g = std::gcd(g, toInt(in, v, "gcd argument"));
        return Value::integer(g < 0 ? -g : g);
    });
    mv["factorial"] = in.makeBuiltin("factorial", [](Interp& in, const Value&, CallArgs& a) {
        int64_t n = toInt(in, a.pos.at(0), "factorial() argument");
        if (n < 0) in.raiseValue("factorial() not defined for negative values");
        int64_t r = 1;
        for (int64_t i = 2; i <= n; ++i)
            if (__builtin_mul_overflow(r, i, &r)) in.raise(in.overflowError, "integer overflow: model scripts use 64-bit integers");
        return Value::integer(r);
    });
    mv["comb"] = in.makeBuiltin("comb", [](Interp& in, const Value&, CallArgs& a) {
        int64_t n = toInt(in, a.pos.at(0), "n"), k = toInt(in, a.pos.at(1), "k");
        if (n < 0 || k < 0) in.raiseValue("n and k must be non-negative integers");
        if (k > n) return Value::integer(0);
        k = std::min(k, n - k);
        int64_t r = 1;
        for (int64_t i = 1; i <= k; ++i) {
            __int128 t = __int128(r) * (n - k + i) / i;
            if (t > INT64_MAX) in.raise(in.overflowError, "integer overflow: model scripts use 64-bit integers");
            r = int64_t(t);
        }
        return Value::integer(r);
    });
    in.registerModule("math", math);

}

// The typing module.
static void installTyping(Interp& in) {
    // ---- typing: annotations only; subscripting returns the form itself
    Value typing = in.newModule("typing");
    auto formCls = in.makeClass("_SpecialForm", in.objectCls, "typing");
    in.addMethod(formCls, "__getitem__", [](Interp&, const Value&, CallArgs& a) { return a.pos[0]; });
    in.addMethod(formCls, "__repr__", [](Interp& in, const Value&, CallArgs& a) {
        return makeStr("typing." + strOf(a.pos[0].as<OpaqueObj>()->attrs["_name"]));
        (void)in;
    });
    for (const char* n : {"Optional", "List", "Tuple", "Dict", "Any", "Union", "Callable", "Sequence", "Iterable", "Iterator", "Set", "Type", "Mapping", "ClassVar", "Final", "Literal", "FrozenSet", "DefaultDict", "Deque", "Generator", "NoReturn"}) {
        auto form = std::make_shared<OpaqueObj>();
        form->cls = formCls;
        form->attrs["_name"] = makeStr(n);
        typing.as<ModuleObj>()->ns->vars[n] = Value(form);
    }
    in.registerModule("typing", typing);
}

void installBuiltins(Interp& in) {
    installTypes(in);
    installConstructors(in);
    installFunctions(in);
    installObjectProtocol(in);
    installRestricted(in);
    installStrMethods(in);
    installSequenceMethods(in);
    installDictMethods(in);
    installSetMethods(in);
    installNumberMethods(in);
    installMath(in);
    installTyping(in);
}

} // namespace fl::script
