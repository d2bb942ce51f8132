// str's methods that depend on Unicode character data (case mapping, character classes) and the
// translation ones: installed over builtins.cpp's table, which keeps the byte-wise ones.
#include "core/script/builtins.h"

#include "core/script/interp.h"
#include "core/script/lexer.h"
#include "core/script/unicode.h"

namespace fl::script {

namespace {
namespace uc = unicode;

bool asciiOnly(const std::string& s) {
    for (char c : s)
        if ((unsigned char)c >= 0x80) return false;
    return true;
}

void noArguments(Interp& in, const char* name, const CallArgs& a) {
    if (!a.kw.empty()) in.raiseType(std::string("str.") + name + "() takes no keyword arguments");
    if (!a.pos.empty()) in.raiseType(std::string("str.") + name + "() takes no arguments (" + std::to_string(a.pos.size()) + " given)");
}

// Every character in one of the classes `any`; empty strings are false.
bool allIn(const std::string& s, uint16_t any) {
    if (s.empty()) return false;
    for (uint32_t cp : uc::decode(s))
        if (!(uc::classes(cp) & any)) return false;
    return true;
}

// str.isupper / islower: some cased character, and none of the other case (titlecase counts as other).
bool allCased(const std::string& s, uc::Class want) {
    bool cased = false;
    uint16_t other = uc::Title | (want == uc::Upper ? uc::Lower : uc::Upper);
    for (uint32_t cp : uc::decode(s)) {
        uint16_t c = uc::classes(cp);
        if (c & other) return false;
        cased = cased || (c & want);
    }
    return cased;
}

// Uppercase and titlecase characters only after uncased ones, lowercase ones only after cased ones.
bool isTitled(const std::string& s) {
    bool cased = false, previousCased = false;
    for (uint32_t cp : uc::decode(s)) {
        uint16_t c = uc::classes(cp);
        if (c & (uc::Upper | uc::Title)) {
            if (previousCased) return false;
            previousCased = cased = true;
        } else if (c & uc::Lower) {
            if (!previousCased) return false;
            previousCased = cased = true;
        } else {
            previousCased = false;
        }
    }
    return cased;
}

bool isIdentifier(const std::string& s) {
    std::vector<uint32_t> cps = uc::decode(s);
    if (cps.empty() || !(isXidStart(cps[0]) || cps[0] == '_')) return false;
    for (size_t i = 1; i < cps.size(); ++i)
        if (!isXidContinue(cps[i])) return false;
    return true;
}

std::string expandTabs(Interp& in, const std::string& s, int64_t tab) {
    std::string out;
    int64_t column = 0;
    for (uint32_t cp : uc::decode(s)) {
        if (cp == '\t') {
            if (tab <= 0) continue;
            int64_t n = tab - column % tab;
            in.checkAlloc(int64_t(out.size()) + n, "string");
            out.append(size_t(n), ' ');
            column += n;
            continue;
        }
        uc::appendUtf8(out, cp);
        column = cp == '\n' || cp == '\r' ? 0 : column + 1;
    }
    return out;
}

// What table[cp] says for one character: appended to out, nothing (deleted) or the character itself.
void translateOne(Interp& in, std::string& out, const Value& table, uint32_t cp) {
    Value key = Value::integer(int64_t(cp)), to;
    if (table.is(OK::Dict)) {
        const Value* v = table.as<DictObj>()->map.find(key);
        if (!v) { uc::appendUtf8(out, cp); return; }
        to = *v;
    } else {
        try {
            to = in.getItem(table, key);
        } catch (PyException& e) {
            if (!in.isInstance(e.exc, in.lookupError.get())) throw;
            uc::appendUtf8(out, cp);
            return;
        }
    }
    if (to.isNone()) return;
    if (to.isStr()) { out += strOf(to); return; }
    if (to.isIntLike() || isBigInt(to)) {
        if (isBigInt(to) || to.i() < 0 || to.i() >= 0x110000) in.raiseValue("character mapping must be in range(0x110000)");
        uc::appendUtf8(out, uint32_t(to.i()));
        return;
    }
    in.raiseType("character mapping must return integer, None or str");
}

Value makeTrans(Interp& in, CallArgs& a) {
    if (!a.kw.empty()) in.raiseType("maketrans() takes no keyword arguments");
    size_t n = a.pos.size();
    if (n == 0) in.raiseType("maketrans expected at least 1 argument, got 0");
    if (n > 3) in.raiseType("maketrans expected at most 3 arguments, got " + std::to_string(n));
    auto out = std::make_shared<DictObj>();
    if (n == 1) {
        if (!a.pos[0].is(OK::Dict)) in.raiseType("if you give only one argument to maketrans it must be a dict");
        for (auto& e : a.pos[0].as<DictObj>()->map.entries()) {
            if (!e.live) continue;
            if (e.key.isStr()) {
                std::vector<uint32_t> k = uc::decode(strOf(e.key));
                if (k.size() != 1) in.raiseValue("string keys in translate table must be of length 1");
                out->map.set(Value::integer(int64_t(k[0])), e.val);
            } else if (e.key.isIntLike() || isBigInt(e.key)) {
                out->map.set(e.key.isBool() ? Value::integer(e.key.i()) : e.key, e.val);
            } else {
                in.raiseType("keys in translate table must be strings or integers");
            }
        }
        return Value(out);
    }
    if (!a.pos[0].isStr()) in.raiseType("first maketrans argument must be a string if there is a second argument");
    for (size_t k = 1; k < n; ++k)
        if (!a.pos[k].isStr()) in.raiseType("maketrans() argument " + std::to_string(k + 1) + " must be str, not " + in.typeName(a.pos[k]));
    std::vector<uint32_t> from = uc::decode(strOf(a.pos[0])), to = uc::decode(strOf(a.pos[1]));
    if (from.size() != to.size()) in.raiseValue("the first two maketrans arguments must have equal length");
    for (size_t i = 0; i < from.size(); ++i) out->map.set(Value::integer(int64_t(from[i])), Value::integer(int64_t(to[i])));
    if (n == 3)
        for (uint32_t cp : uc::decode(strOf(a.pos[2]))) out->map.set(Value::integer(int64_t(cp)), Value());
    return Value(out);
}

// s.partition(sep) / s.rpartition(sep): around the first (last) sep; not found, s on the side searched from.
Value partitionStr(Interp& in, const std::string& s, const CallArgs& a, bool fromRight) {
    if (a.pos.size() != 1 || !a.kw.empty()) in.raiseType(std::string(fromRight ? "rpartition" : "partition") + "() takes exactly one argument (" + std::to_string(a.pos.size()) + " given)");
    if (!a.pos[0].isStr()) in.raiseType("must be str, not " + in.typeName(a.pos[0]));
    const std::string& sep = strOf(a.pos[0]);
    if (sep.empty()) in.raiseValue("empty separator");
    size_t f = fromRight ? s.rfind(sep) : s.find(sep);
    if (f == std::string::npos) return fromRight ? makeTuple({makeStr(""), makeStr(""), makeStr(s)}) : makeTuple({makeStr(s), makeStr(""), makeStr("")});
    return makeTuple({makeStr(s.substr(0, f)), makeStr(sep), makeStr(s.substr(f + sep.size()))});
}
} // namespace

void installStrUnicodeMethods(Interp& in) {
    auto& sm = in.methodsOf(OK::Str);
    auto mapping = [](const char* name, std::string (*fn)(const std::string&)) {
        return [name, fn](Interp& in, const Value& self, CallArgs& a) {
            noArguments(in, name, a);
            return makeStr(fn(strOf(self)));
        };
    };
    sm["lower"] = mapping("lower", uc::lower);
    sm["upper"] = mapping("upper", uc::upper);
    sm["casefold"] = mapping("casefold", uc::casefold);
    sm["title"] = mapping("title", uc::title);
    sm["capitalize"] = mapping("capitalize", uc::capitalize);
    sm["swapcase"] = mapping("swapcase", uc::swapcase);
    auto test = [](const char* name, bool (*fn)(const std::string&)) {
        return [name, fn](Interp& in, const Value& self, CallArgs& a) {
            noArguments(in, name, a);
            return Value::boolean(fn(strOf(self)));
        };
    };
    sm["isalpha"] = test("isalpha", [](const std::string& s) { return allIn(s, uc::Alpha); });
    sm["isdecimal"] = test("isdecimal", [](const std::string& s) { return allIn(s, uc::Decimal); });
    sm["isdigit"] = test("isdigit", [](const std::string& s) { return allIn(s, uc::Digit); });
    sm["isnumeric"] = test("isnumeric", [](const std::string& s) { return allIn(s, uc::Numeric); });
    sm["isalnum"] = test("isalnum", [](const std::string& s) { return allIn(s, uc::Alpha | uc::Decimal | uc::Digit | uc::Numeric); });
    sm["isspace"] = test("isspace", [](const std::string& s) { return allIn(s, uc::Space); });
    sm["isupper"] = test("isupper", [](const std::string& s) { return allCased(s, uc::Upper); });
    sm["islower"] = test("islower", [](const std::string& s) { return allCased(s, uc::Lower); });
    sm["istitle"] = test("istitle", isTitled);
    sm["isascii"] = test("isascii", asciiOnly);
    sm["isprintable"] = test("isprintable", [](const std::string& s) { return s.empty() || allIn(s, uc::Printable); });
    sm["isidentifier"] = test("isidentifier", isIdentifier);
    sm["expandtabs"] = [](Interp& in, const Value& self, CallArgs& a) {
        static Sig sig("expandtabs", "tabsize=");
        if (a.pos.size() > 1) in.raiseType("expandtabs() takes at most 1 argument (" + std::to_string(a.pos.size()) + " given)");
        auto b = sig.bind(in, a);
        if (!b[0].isMissing() && !b[0].isIntLike()) in.raiseType("'" + in.typeName(b[0]) + "' object cannot be interpreted as an integer");
        return makeStr(expandTabs(in, strOf(self), b[0].isMissing() ? 8 : b[0].i()));
    };
    sm["translate"] = [](Interp& in, const Value& self, CallArgs& a) {
        if (a.pos.size() != 1 || !a.kw.empty()) in.raiseType("str.translate() takes exactly one argument (" + std::to_string(a.pos.size()) + " given)");
        std::string out;
        for (uint32_t cp : uc::decode(strOf(self))) translateOne(in, out, a.pos[0], cp);
        return makeStr(out);
    };
    sm["maketrans"] = [](Interp& in, const Value&, CallArgs& a) { return makeTrans(in, a); };
    in.strCls->attrs["maketrans"] = in.makeBuiltin("maketrans", [](Interp& in, const Value&, CallArgs& a) { return makeTrans(in, a); });
    sm["partition"] = [](Interp& in, const Value& self, CallArgs& a) { return partitionStr(in, strOf(self), a, false); };
    sm["rpartition"] = [](Interp& in, const Value& self, CallArgs& a) { return partitionStr(in, strOf(self), a, true); };
}

} // namespace fl::script
