# re: findall (no group, one group, several), finditer, split with maxsplit and groups, and the
# Python 3.7 rules for empty matches next to other matches.
import re

text = "The loss fell steadily, then sharply; training ended early and quietly."
print(re.findall(r"\w+ly\b", text))
for m in re.finditer(r"\w+ly\b", text):
    print("%02d-%02d: %s" % (m.start(), m.end(), m.group(0)))
print(re.findall(r"(\w+)=(\d+)", "a=1, b=22, c=x, d=333"))
print(re.findall(r"(\w+)=\d+", "a=1, b=22, c=x, d=333"))
print(re.findall(r"(a)|(b)", "abc"), re.findall(r"x*", "axxb"), re.findall("", "abc"))
print(re.findall(r"\d+", "no digits"), re.findall(r"[aeiou]", "Tensorboard"))
print([m.span() for m in re.finditer(r"x*", "axxb")])
print([m.group() for m in re.compile(r"\d").finditer("a1b22c333", 2, 7)])
print(re.compile(r"\w").findall("abcdef", 2, 4))

print(re.split(r"\W+", "Epochs, batches, steps."))
print(re.split(r"(\W+)", "Epochs, batches, steps."))
print(re.split(r"\W+", "Epochs, batches, steps.", 1))
print(re.split(r"\W+", "Epochs, batches, steps.", maxsplit=2))
print(re.split("[x-z]+", "1x4Z7y", flags=re.IGNORECASE))
print(re.split(r"(\W+)", "..grad, norm.."))
print(re.split(r"\b", "Epochs, batches, steps."))
print(re.split(r"\W*", "..norm.."))
print(re.split(r"(\W*)", "..norm.."))
print(re.split(r"(a)|(b)", "xaybz"))
print(re.split(",", "a,b,c", -1), re.split(",", ""), re.split("x*", ""), re.split("", "ab"))
print(re.split(r"\s+", "  leading and trailing  "))
print(re.compile(r"[;,]\s*").split("a; b,c ,d"))
