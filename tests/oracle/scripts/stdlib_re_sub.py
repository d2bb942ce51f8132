# re: sub / subn with string templates (\1, \g<1>, \g<name>, \g<0>, escapes), functions, count,
# empty matches, and Match.expand.
import re

print(re.sub(r"def\s+([a-zA-Z_][a-zA-Z_0-9]*)\s*\(\s*\):", r"static PyObject*\npy_\1(void)\n{",
             "def myfunc():"))
print(re.sub(r"(?P<word>\w+)@(\w+)", r"\g<2> at \g<word>", "me@home you@work"))
print(re.sub(r"(\d+)", r"<\g<1>0>", "a1b23"), re.sub(r"(\d+)", r"<\1\0010>", "a1b2"))
print(re.sub("a", r"\n\t\\|", "bab").split("\n"))
print(repr(re.sub("a", r"[\0][\012][\08]", "a")), repr(re.sub("a", r"\_\-\é", "a")))
print(re.sub("x*", "-", "abxd"), re.sub("", "-", "abc"), re.sub("b*", "-", "abc"))
print(re.subn(r"\s+", " ", "a  b \t c\n\nd"), re.subn("z", "y", "abc"))
print(re.sub("a", "b", "aaaa", 2), re.sub("a", "b", "aaaa", count=1), re.subn("a", "b", "aaa", -1))


def dashrepl(m):
    if m.group(0) == "-":
        return " "
    return "-"


print(re.sub("-{1,2}", dashrepl, "pro----gram-files"))
print(re.sub(r"\d+", lambda m: str(int(m.group()) * 2), "3 apples and 12 pears"))
print(re.sub(r"(?i)[aeiou]", lambda m: m.group().upper(), "Hello World"))
print(re.sub("[ae]", lambda m: "", "banana"), re.sub("a", lambda m: None, "bab"))
print(re.sub(r"(a)|b", r"[\1]", "ab"), re.sub(r"(?P<x>a)?b", r"[\g<x>]", "ab b"))
p = re.compile(r"(\w+) (\w+)")
print(p.sub(r"\2 \1", "hello world, good bye"), p.subn(r"\2 \1", "hello world, good bye", 1))
m = p.match("hello world")
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
