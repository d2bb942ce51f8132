# re: look-ahead and look-behind (positive, negative, fixed width, captures inside), anchors
# ^ $ \A \Z \b \B with MULTILINE, and pos/endpos limits.
import re

s = "price: $42, cost: $7, tax 13, $100x"
print(re.findall(r"(?<=\$)\d+", s), re.findall(r"(?<!\$)\b\d+", s), re.findall(r"\d+(?=,)", s))
print(re.findall(r"\$\d+(?!\d|x)", s), re.findall(r"(?<=: )\$(\d+)", s), re.findall(r"(?<=a|b)c", "ac bc cc"))
print(re.findall(r"(?<=(?:ab|cd))x", "abx cdx efx"), re.findall(r"(?<![a-z]{2})\d", "ab1 a2 3"))
print(re.match(r"(?=(\w+))\w", "abc").groups(), re.match(r"(?!(x))a", "a").groups())
print(re.search(r"(?<=(a))b", "ab").groups(), re.findall(r"\w+(?=\.)(?!\.\.)", "a.b..c."))
print(re.compile(r"(?<=a)b").search("ab", 1), re.compile(r"(?=b)").search("ab", 0, 1))
print(re.findall(r"^\w", "ab\ncd"), re.findall(r"(?m)^\w", "ab\ncd"), re.findall(r"\A\w", "ab\ncd", re.M))
print(re.findall(r"\w$", "ab\ncd\n"), re.findall(r"(?m)\w$", "ab\ncd\n"), re.findall(r"\w\Z", "ab\ncd\n"))
print(re.findall(r"$", "a\n"), re.findall(r"(?m)$", "a\nb\n"), re.findall(r"\Z", "a\n"))
print(re.findall(r"\bfoo\b", "foo foo.bar (foo) foobar barfoo"), re.findall(r"\Boo\B", "foo boot oo"))
print(re.findall(r"\b\w", "caf\xe9 \xe9t\xe9"), re.findall(r"(?a)\b\w", "caf\xe9 \xe9t\xe9"))
print(re.search(r"\B", ""), re.search(r"\b", ""), re.search(r"^$", ""), re.search(r"\B", " "))
print(re.compile(r"^a").search("ba", 1), re.compile(r"(?m)^a").search("\na", 1), re.compile(r"\Aa").search("ba", 1))
print(re.compile(r"a$").search("ab", 0, 1), re.compile(r"a\b").search("ab", 0, 1), re.compile(r"a\Z").search("ab", 0, 1))
print(re.findall(r"(?<=^)a|a(?=$)", "aba"), re.findall(r"(?<=\b)x", "x xx"), re.sub(r"(?<=\w)(?=(\w{3})+\b)", ",", "1234567"))
