# re: capturing, non-capturing and named groups, Pattern.groups / groupindex, backreferences
# (\1, (?P=name)), case-insensitive backreferences, and conditionals (?(1)yes|no).
import re

p = re.compile(r"(?P<year>\d{4})-(?P<month>\d\d)(?:-(?P<day>\d\d))?")
print(p.groups, dict(p.groupindex), sorted(p.groupindex.items()), p.groupindex["month"], "day" in p.groupindex)
for s in ["2024-05-17", "1999-12", "x"]:
    m = p.match(s)
    print(m and (m.groups(), m.groupdict(), m.lastgroup, m.lastindex))
print(re.compile(r"(a)(?:b)(c)").groups, len(re.compile(r"(?:a)").groupindex), re.compile("()").groups)

print(re.findall(r"(\w)\1", "hello bookkeeper"), re.search(r"(\w+) \1", "it is is the the end").group())
print(re.sub(r"\b(\w+)( \1\b)+", r"\1", "we we train the the model model model now"))
print(re.match(r"(?P<q>['\"]).*?(?P=q)", "'say \"hi\"' rest").group())
print(re.match(r"(?i)(a)\1", "aA"), re.match(r"(a)\1", "aA"), re.match(r"(?i)(\w+) \1", "Hello HELLO"))
print(re.match(r"(a)|\1", "x"), re.match(r"(a)?\1", "aa"), re.match(r"(a)?b\1", "b"))
print(re.findall(r"(\d)(\d)?\2", "1221 33 455"))

cond = re.compile(r"(<)?(\w+@\w+(?:\.\w+)+)(?(1)>|$)")
for s in ["<ann@lab.example.net>", "ann@lab.example.net", "<ann@lab.example.net", "ann@lab.example.net>"]:
    m = cond.match(s)
    print(s, m and m.groups())
print(re.findall(r"(?P<a>a)?(?(a)b|c)", "abcac"), re.match(r"(a)?(?(1)b)c", "c").groups())
print(re.match(r"((?P<x>a)|b)(?(x)1|2)", "b2").groups(), re.fullmatch(r"(a)?(?(1)|x)", "x").groups())
n = re.compile(r"(?P<first>\w)(?P<rest>\w*)")
print(n.sub(lambda m: m["first"].upper() + m.group("rest"), "hello big world"))
print(n.sub(r"\g<rest>\g<first>ay", "pig latin"))
