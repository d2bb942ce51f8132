# re: character classes (ranges, negation, escapes, ']' and '-' placement), the class escapes
# \d \w \s and their complements (Unicode by default, ASCII with re.A), dot, and literal escapes.
import re

s = "The 3 quick_brown foxes, 42 jumps! Tab\there; new\nline [x] a-b ^c \\ end"
for p in [r"[abc]", r"[a-c]+", r"[^a-z\s]+", r"[]x]", r"[^]x ]+", r"[a\-z]+", r"[-a]", r"[a-]",
          r"[\]\\]", r"[\d.]+", r"[\w-]+", r"[^\W\d_]+", r"[\s]+", r"\S+", r"\D+", r"\W+",
          r"[\t\n]", r"[\x41-\x43a]+", r"[\u0061-\u0063]+", r"[\101]", r"\x20\d", r"[.^$*+?{}|()]",
          r"\^c", r"\[x\]", r"\\", r"[\b]", r"h\.", r"\-b", r"[\^]"]:
    print(p, re.findall(p, s))
print(re.findall(r".", "a\nb"), re.findall(r"[^a]", "a\nb"), re.findall(r"\0\07\x07\a", "\x00\x07\x07\x07"))
print(re.findall(r"[A-Fa-f0-9]{2}", "ff:0A:g1:9z"), re.findall(r"[^\d\s]", "1 a 2 b"))
print(re.findall(r"\d", "4\u0664\u0e54\xb2\u2155"), re.findall(r"\d", "4\u0664\u0e54\xb2", re.A))
print(re.findall(r"\w+", "na\xefve \u03b1\u03b2\u03b3 \u0436\u0443\u043a \u4e2d\u6587 x_1 \xb2\xbd"))
print(re.findall(r"\W+", "a\xa0b\u2003c-d"), re.findall(r"\s", "a\xa0b\u2003c\u2028d\x1ce\x85"))
print(re.findall(r"\s", "a\xa0b\u2003c\x0bd", re.A), re.findall(r"[\s\w]+", "\xe9 \xe8!"))
print(re.findall(r"[^\w\s]", "a.b,\xe9;\u2014"), re.findall(r"[\W]", "a.\xe9"))
print(re.findall(r"[\u00e0-\u00ff]+", "voil\xe0 \xe7a \xfc"), re.findall(r"[\U0001F600-\U0001F64F]", "hi \U0001F600!"))
