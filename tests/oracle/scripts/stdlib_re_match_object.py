# re: match / search / fullmatch and the Match object (group, groups, groupdict, span, start,
# end, lastindex, lastgroup, pos, endpos, re, string, [], expand, regs, repr, truth).
import re

m = re.match(r"(\w+) (\w+)", "Ada Lovelace, analyst")
print(m)
print(m.group(), m.group(0), m.group(1), m.group(2), m.group(1, 2), m.group(2, 0))
print(m[0], m[1], m[2], m.groups(), m.span(), m.span(1), m.start(2), m.end(2))
print(m.pos, m.endpos, m.re, m.string, m.lastindex, m.lastgroup, m.regs)
print(bool(m), type(m).__name__, re.match(r"\d", "abc"), re.search(r"\d", "abc"))

m = re.match(r"(?P<first>\w+) (?P<last>\w+)", "Grace Hopper")
print(m.group("first"), m["last"], m.groupdict(), m.lastindex, m.lastgroup)
print(m.span("first"), m.start("last"), m.end("last"), m.group("first", 2))

m = re.match(r"(\d+)\.?(\d+)?", "57")
print(m.groups(), m.groups("0"), m.group(2), m.span(2), m.start(2), m.lastindex)
m = re.match(r"(?P<a>x)|(?P<b>y)", "y")
print(m.groupdict(), m.groupdict(""), m.lastgroup, m.lastindex)
m = re.match(r"((a)(b))", "ab")
print(m.lastindex, m.groups(), m.regs)
m = re.match(r"(a)(b)?", "a")
print(m.lastindex, m.expand(r"[\1][\2][\g<0>]"))

print(re.search("b+", "aabbbcc"), re.fullmatch("a|ab", "ab"), re.fullmatch("a+", "aab"))
print(re.match("", "abc"), re.search("$", "abc"), re.search("c$", "abc\n"))

p = re.compile(r"e[lm]")
print(p.search("gel"), p.match("gel"), p.match("gel", 1), p.search("helmet", 1, 3), p.search("gel", 0, 2))
print(p.fullmatch("gel"), p.fullmatch("elk"), p.fullmatch("helmet", 1, 3))
m = p.search("xxemyy", 1, 5)
print(m.pos, m.endpos, m.string, m.span())
print(p.match("el", -5), p.search("el", 1, 100), p.search("xel", 5), p.match("el", 0, -1))

for g in (3, -1, "nope"):
    try:
        m = re.match("(a)", "a")
        m.group(g)
    except IndexError as e:
        print("IndexError", e)
try:
    re.match("(a)", "a").start(2)
except IndexError as e:
    print("IndexError", e)
