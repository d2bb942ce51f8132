# re: escape, purge, the compile cache, compiled patterns passed to the module functions,
# Pattern equality, hashing and attributes, and flags given to module functions.
import re

print(re.escape("https://data.example.org/v1.2?q=a+b"), re.escape("1+1=2 (a*b) [x] {y} ^$|\\ ~&#-"))
print(re.escape("tab\there\nnl"), re.escape("caf\xe9 \u4e2d!"), re.escape(""))
punct = "!#$%&'*+-.^_`|~:"
print("[%s]+" % re.escape(punct), re.findall("[%s]+" % re.escape(punct), "x!#$%&'*+-.^_`|~:y"))
ops = sorted(["+", "-", "*", "/", "**"], reverse=True)
print("|".join(map(re.escape, ops)), re.findall("|".join(map(re.escape, ops)), "2**3+4*5-6/7"))

p = re.compile(r"\d+")
print(re.compile(r"\d+") is p, re.compile(p) is p, re.match(p, "42x"), re.findall(p, "1 22 333"))
print(p == re.compile(r"\d+"), p == re.compile(r"\d+", re.I), hash(p) == hash(re.compile(r"\d+")))
re.purge()
q = re.compile(r"\d+")
print(q == p, q.pattern, q.groups, q.flags, type(q).__name__, type(q.match("1")).__name__)
print(re.search("A", "xa", re.I), re.findall("^x", "x\nx", re.M), re.split("a", "bAc", flags=re.I))
print(re.sub("a", "b", "AaA", flags=re.I), re.subn("a", "b", "AaA", 1, re.I), re.fullmatch("a.", "A\n", re.I | re.S))
print(re.compile("x").pattern, re.compile("").groups, re.match("", "").span(), re.compile("a|b").search("cab").span())
print(list(re.finditer("", "ab")), [m.group() for m in re.finditer(r"\w", "a b", re.A)])
m = re.search(r"(?P<n>\d)", "a1")
print(m.re is re.compile(r"(?P<n>\d)"), m.re.pattern, m.re.groupindex["n"], m.string)
import copy
print(copy.copy(p) is p, copy.deepcopy(m).group(), copy.copy(m).span())
