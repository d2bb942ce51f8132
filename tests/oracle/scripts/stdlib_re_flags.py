# re: flag objects (combining with |, their reprs), Pattern.flags and repr, inline flags (global
# at the start, scoped with (?i:...) and (?-i:...)), VERBOSE, DOTALL, MULTILINE, ASCII.
import re

print(re.I, re.IGNORECASE, re.M | re.I, re.I | re.M | re.S, re.A | re.X, re.NOFLAG, re.U)
print(repr(re.I | re.M), str(re.S), int(re.I | re.M), re.I == 2, re.I | 8, 8 | re.I, re.I & re.M)
print(re.I.value, re.I.name, (re.I | re.M).value, bool(re.NOFLAG), bool(re.S), hash(re.M) == hash(8))
print(re.compile("a").flags, re.compile("a", re.I).flags, re.compile("a", re.A).flags,
      re.compile("(?i)a").flags, re.compile("(?i:a)").flags, re.compile("(?x)a b", re.M).flags)
print(re.compile("a+b", re.IGNORECASE), re.compile(r"\d", re.I | re.M | re.S | re.X | re.A))
print(re.compile("x", re.U), re.compile("it's"), re.compile("a\nb"), re.compile("(?i)q"))
print(re.compile(r"\w" * 120))

print(re.findall("a", "aAbA", re.I), re.findall("(?i)a", "aAbA"), re.findall("(?i:a)b", "ABAbab"))
print(re.findall("(?i)a(?-i:b)", "ABAbab"), re.findall("[a-c]+", "xABCabcx", flags=re.I))
print(re.findall("^\\w+", "one\ntwo\nthree"), re.findall("^\\w+", "one\ntwo\nthree", re.M))
print(re.findall("\\w+$", "one\ntwo\nthree\n"), re.findall("(?m)\\w+$", "one\ntwo\nthree\n"))
print(re.findall("a.c", "abc a\nc"), re.findall("a.c", "abc a\nc", re.S), re.findall("(?s:a.)c", "a\nc"))
print(re.findall(r"\w+", "caf\xe9 na\xefve", re.A), re.findall(r"\w+", "caf\xe9 na\xefve"))
print(re.findall(r"(?a)\w+", "\xe9t\xe9 x"), re.findall(r"(?a:\w)+", "\xe9t\xe9 x"))

a = re.compile(r"""\d +  # units
                   \.    # separator
                   \d *  # the rest, maybe none""", re.X)
b = re.compile(r"\d+\.\d*")
print(a.match("3.1415").group(), b.match("3.1415").group(), a.flags)
v = re.compile(r"""(?x)
    (?P<key> [a-z_]+ )   \s* = \s*    # key = ...
    (?P<value> [^#\n]*? ) \s* (?: \# .* )? $
""", re.M)
for m in v.finditer("alpha = 1  # first\nbeta=two words\ngamma =   # empty\n"):
    print(m.group("key"), repr(m.group("value")))
print(re.findall(r"(?x) a [ ] b \  c", "a bc a b c"), re.findall(r"(?x)a#comment", "aa"))
print(re.match(r"(?x)a{2 }", "a{2}"), re.match(r"(?x) a {2}", "aa"))
print(re.compile("(?s)(?m)x").flags, re.compile("(?im)x").flags, re.compile("(?#note)(?i)x").flags)

for bad in [re.A | re.U, re.L]:
    try:
        re.compile("x", bad)
    except ValueError as e:
        print("ValueError:", e)
try:
    re.compile(re.compile("x"), re.I)
except ValueError as e:
    print("ValueError:", e)
