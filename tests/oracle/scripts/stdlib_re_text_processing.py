# re: typical script uses: a tokenizer on finditer and lastgroup, a pattern.match(text, pos)
# scanner, parsing key=value configs and log lines, and cleaning text with sub and split.
import re

TOKENS = [("NUMBER", r"\d+(?:\.\d*)?(?:[eE][-+]?\d+)?"), ("NAME", r"[A-Za-z_]\w*"),
          ("OP", r"\*\*|[-+*/%=(),:]"), ("NEWLINE", r"\n"), ("SKIP", r"[ \t]+"), ("ERROR", r".")]
tok_re = re.compile("|".join("(?P<%s>%s)" % pair for pair in TOKENS))
src = "lr = 3e-4\nsteps = (10 + x2) ** 2 / 7.5 $\n"
line = 1
for m in tok_re.finditer(src):
    kind = m.lastgroup
    if kind == "SKIP":
        continue
    if kind == "NEWLINE":
        line += 1
        continue
    print(line, kind, repr(m.group()), m.start() - (src.rfind("\n", 0, m.start()) + 1))

scanner = re.compile(r"\s*(?:(\d+)|(\w+)|(.))")
pos = 0
out = []
text = "sum 12 + x"
while pos < len(text):
    m = scanner.match(text, pos)
    if not m:
        break
    out.append((m.lastindex, m.group(m.lastindex)))
    pos = m.end()
print(out)

config = """
# training
model.name = resnet18
model.depth=18
optim.lr = 0.001   # base rate
data.paths = /a/b, /c/d
"""
entry = re.compile(r"^\s*(?P<key>[\w.]+)\s*=\s*(?P<value>.*?)\s*(?:#.*)?$", re.M)
cfg = {m["key"]: m["value"] for m in entry.finditer(config)}
print(cfg)
print([s for s in re.split(r"\s*,\s*", cfg["data.paths"])])

log = """2024-01-02 10:00:01 INFO step=100 loss=2.3456 lr=1e-3
2024-01-02 10:05:09 WARN grad norm 1e5 at step=150
2024-01-02 10:10:17 INFO step=200 loss=1.9876 lr=1e-3"""
rec = re.compile(r"^(\S+) (\S+) (?P<level>[A-Z]+) .*?step=(?P<step>\d+)(?: loss=(?P<loss>[\d.]+))?", re.M)
for m in rec.finditer(log):
    print(m.group("level"), int(m.group("step")), m.group("loss"), m.span("step"))
print(re.findall(r"loss=([\d.]+)", log), [float(x) for x in re.findall(r"(?<=loss=)[\d.]+", log)])

messy = "  Hello,\t\tWORLD!!  This   is\na  test.  "
print(repr(re.sub(r"\s+", " ", messy).strip()), re.sub(r"[^\w\s]", "", messy).split())
print(re.sub(r"(?i)\bworld\b", "there", messy).count("there"), re.split(r"[.!?]+\s*", "One. Two! Three?"))
camel = "convertCamelCaseToSnake_caseHTTPServer"
print(re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", camel).lower())
print(re.sub(r"_([a-z])", lambda m: m.group(1).upper(), "snake_case_name"))
print(re.findall(r"[\w.+-]+@[\w-]+\.[\w.]+", "mail a.b+c@ex-ample.org or x@y.co.uk now"))
print(re.sub(r"(\d)(?=(\d{3})+(?!\d))", r"\1,", "1234567 and 1000"))
