# covers: str.translate with str.maketrans (one, two and three arguments, dicts, lists, deletion),
# expandtabs, isidentifier, partition/rpartition, casefold, isascii, isprintable, istitle,
# swapcase, splitlines(keepends), and case mapping and character classes beyond ASCII (Latin-1,
# Greek with its final sigma, Cyrillic, ß, digits and spaces of other scripts), with CPython's errors
table = str.maketrans("abc", "xyz")
print(sorted(table.items()))
print("aabbcc-abc".translate(table))
print("hello world".translate(str.maketrans("lo", "01", " ")))
print("hello".translate(str.maketrans({"h": "J", "o": None, 101: "EE"})))
print("abc".translate({97: 65, 98: None}), "abc".translate([None, "x"] * 60))
print(str.maketrans({"a": 1, 98: "B"}), "x".maketrans("x", "y"))
print("caf\u00e9 na\u00efve".translate(str.maketrans("\u00e9\u00ef", "ei")))


class Upper:
    def __getitem__(self, cp):
        if cp == ord(" "):
            raise LookupError("keep")
        return chr(cp).upper()


print("mixed case text".translate(Upper()))
for bad in [lambda: str.maketrans(1), lambda: str.maketrans({"ab": 1}), lambda: str.maketrans({1.5: 1}),
            lambda: str.maketrans("ab", "c"), lambda: str.maketrans(1, "c"), lambda: str.maketrans("a", 2),
            lambda: str.maketrans("a", "b", 3), lambda: "abc".translate({97: 1.5}),
            lambda: "abc".translate({97: 0x110000}), lambda: "a".rpartition(""), lambda: "a".partition(""),
            lambda: "a".rpartition(1), lambda: "a".expandtabs("x")]:
    try:
        print(repr(bad()))
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ":", e)

print(repr("a\tb\n\tc\r\td".expandtabs()), repr("ab\tc".expandtabs(0)), repr("12345\t6\t".expandtabs(4)))
print(repr("\u00e9\tx".expandtabs(4)), repr("\t".expandtabs(tabsize=3)), repr("no tabs".expandtabs(2)))
for s in ["abc", "_x1", "1abc", "", "a-b", "class", "\u00e9t\u00e9", "\u03bb", "a b", "x\u00b2", "\u2160", "_"]:
    print(repr(s), s.isidentifier(), end="; ")
print()
print("a.b.c".rpartition("."), "abc".rpartition("."), "a.b.c".partition("."), "abc".partition("."))
print("k=v=w".rpartition("="), "==".rpartition("="), "\u00e9x\u00e9y".rpartition("\u00e9"))

words = ["Hello", "\u00c9COLE", "\u00e9cole", "Stra\u00dfe", "\u039f\u0394\u039f\u03a3", "\u03a3", "\u039c\u0391\u03a3 \u03a3\u0391",
         "\u041f\u0440\u0438\u0432\u0435\u0442", "\u0130stanbul", "\ufb01ne", "\u01c6a", "\u00ff", "a\u03a3.", "\u03a3\u03a3 \u03b1\u03a3'\u03b2"]
for w in words:
    print(w, "|", w.lower(), w.upper(), w.casefold(), w.title(), w.capitalize(), w.swapcase())
print("\u00e9".upper() == "\u00c9", "\u00df".upper(), len("\u0130".lower()), "\u1e9e".lower(), "\u00b5".upper())
print("hello world".title(), "they're bill's".title(), "HELLO wORLD".swapcase(), "\u00e9COLE".capitalize())

samples = ["abc", "ABC", "Abc", "\u00e9\u00e8", "\u00c9\u00c8", "\u03b1\u03b2\u03b3", "\u0391\u0392", "123", "\u0663\u0664",
           "\u00b2", "\u2155", "\u4e00", " \t", "\u00a0\u2003", "a1", "\u00e91", "", "Hello World", "Hello world",
           "\u01c5a", "\u00aa", "12abc", "\x1f", "\u200b", "caf\u00e9!"]
for s in samples:
    print(repr(s), s.isalpha(), s.isdigit(), s.isdecimal(), s.isnumeric(), s.isalnum(), s.isspace(),
          s.isupper(), s.islower(), s.istitle(), s.isascii(), s.isprintable())

print("  \u00a0 spaced\u2003 ".strip() + "|", "\u3000a\u3000b\u3000".split(), "a\x1cb\x1dc\x85d".split())
print("x\u00a0y z".split(None, 1), "x\u00a0y z".rsplit(None, 1), "\u00e9a\u00e9".strip("\u00e9"), "\u00e8x\u00e9".strip("\u00e9"))
print("a\nb\r\nc\rd\x0be\x0cf\x1cg\x85h\u2028i\u2029j".splitlines())
print("one\ntwo\r\nthree\n".splitlines(keepends=True), "".splitlines(), "\n".splitlines(), "x\n\n".splitlines(True))
print("ABC".casefold(), "\u00df".casefold(), "\u03a3".casefold(), "\ufb03".casefold())
