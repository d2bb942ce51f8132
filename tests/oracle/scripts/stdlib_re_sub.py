# re: sub / subn with string templates (\1, \g<1>, \g<name>, \g<0>, escapes), functions, count,
# empty matches, and Match.expand.
import re

print(re.sub(r"layer\s+([a-z_]\w*)\s*:\s*(\d+)", r"nn.Linear(\2)  # \1\n->", "layer fc_1 : 128"))
print(re.sub(r"(?P<word>\w+)@(\w+)", r"\g<2> at \g<word>", "me@home you@work"))
print(re.sub(r"(\d+)", r"<\g<1>0>", "a1b23"), re.sub(r"(\d+)", r"<\1\0010>", "a1b2"))
print(re.sub("a", r"\n\t\\|", "bab").split("\n"))
print(repr(re.sub("a", r"[\0][\012][\08]", "a")), repr(re.sub("a", r"\_\-\é", "a")))
print(re.sub("x*", "-", "abxd"), re.sub("", "-", "abc"), re.sub("b*", "-", "abc"))
print(re.subn(r"\s+", " ", "a  b \t c\n\nd"), re.subn("z", "y", "abc"))
print(re.sub("a", "b", "aaaa", 2), re.sub("a", "b", "aaaa", count=1), re.subn("a", "b", "aaa", -1))


def collapse(m):
    if len(m.group(0)) == 1:
        return "_"
    return "="


print(re.sub("=+", collapse, "a=b===c==d"))
print(re.sub(r"\d+", lambda m: str(int(m.group()) * 2), "3 apples and 12 pears"))
print(re.sub(r"(?i)[aeiou]", lambda m: m.group().upper(), "Batch Norm"))
print(re.sub("[ae]", lambda m: "", "banana"), re.sub("a", lambda m: None, "bab"))
print(re.sub(r"(a)|b", r"[\1]", "ab"), re.sub(r"(?P<x>a)?b", r"[\g<x>]", "ab b"))
p = re.compile(r"(\w+) (\w+)")
print(p.sub(r"\2 \1", "fast model, slow data"), p.subn(r"\2 \1", "fast model, slow data", 1))
m = p.match("fast model")
print(m.expand(r"\2-\1 (\g<0>)"), m.expand(r"\g<2>\g<1>"))
for t in [r"\3", r"\g<x>", r"\g<1", r"\q", "\\", r"\g<-1>", r"\g"]:
    try:
        re.sub(r"(\w+) (\w+)", t, "a b")
    except re.error as e:
        print("error:", e.msg, "|", e, "|", e.pos)
    except IndexError as e:
        print("IndexError:", e)
try:
    re.sub("a", lambda m: 5, "xa")
except TypeError as e:
    print("TypeError:", e)
print(re.sub(r"\b", "|", "ab cd"), re.sub(r"$", "!", "line1\nline2\n"), re.sub(r"(?m)$", "!", "l1\nl2"))
