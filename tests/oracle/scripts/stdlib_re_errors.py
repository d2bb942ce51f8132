# re: re.error for malformed patterns (msg, pattern, pos, lineno, colno and str() as CPython
# gives them), and the TypeError / ValueError / OverflowError cases of the module functions.
import re

bad = ["(", "(a", "a)", "*", "a**", "a{2}{3}", "a|*", "^*", r"\q", "\\", "[a", "[]", "[z-a]",
       r"[\d-z]", "a{3,2}", "(?P<1>a)", "(?P<a>x)(?P<a>y)", "(?P=b)", "(?P<a", "(?Px)", "(?",
       "(?z)", "(?i-", "(?-i)", "(?i-i:a)", "a(?i)", r"\1", r"(a)\2", r"(a\1)", r"\400", r"\x1",
       r"\u12", r"\U00110000", "(?<=a+)b", "(?<=a|bc)", r"(?<=(a)\1)", "(?#abc", "(?(1)a|b)",
       "(a)(?(1)a|b|c)", "(?(x)a)", "(a)(?(0)a)", "(?au)", "(?L)x", r"[\B]", r"\z", "(?<x", "x++*",
       "a\nb(", "(\n\na", "line1\n  [x", r"(?P<a\>b>x)", r"(?P=a\)", "\\q\\", "a**\\", "(?z\\",
       r"(?<\ab)", "(?<=a|bc)(", "(?#a\\)b)c"]
for p in bad:
    try:
        re.compile(p)
        print(repr(p), "compiled")
    except re.error as e:
        print(repr(p), "|", e, "|", e.msg, e.pos, e.lineno, e.colno, e.pattern == p)
e = re.error("custom")
print(e, e.msg, e.pattern, e.pos, e.lineno, isinstance(e, Exception), re.error.__name__)
try:
    re.compile("a{99999999999}")
except OverflowError as e:
    print("OverflowError:", e)
for args in [(5, "a"), (None, "a")]:
    try:
        re.match(*args)
    except TypeError as e:
        print("TypeError:", e)
for s in [None, 5, ["a"]]:
    try:
        re.search("a", s)
    except TypeError as e:
        print("TypeError:", e)
try:
    re.sub("a", 5, "a")
except TypeError as e:
    print("TypeError:", e)
for f in [re.A | re.U, re.L]:
    try:
        re.compile("x", f)
    except ValueError as e:
        print("ValueError:", e)
try:
    re.compile("(?a)(?u)x")
except ValueError as e:
    print("ValueError:", e)
try:
    raise re.error("missing ), unterminated subpattern", "(ab", 0)
except re.error as e:
    print(e.args, e.pos, e.colno)
