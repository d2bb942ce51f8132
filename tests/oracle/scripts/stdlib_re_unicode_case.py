# re: IGNORECASE beyond ASCII (Kelvin sign, long s, dotted and dotless i, Greek sigmas, German
# sharp s), the same with re.ASCII, case-insensitive sets, ranges and backreferences, and
# Unicode letters, digits and spaces in \w \d \s and \b.
import re

chars = "kK\u212asS\u017fiI\u0130\u0131\u03c3\u03a3\u03c2\xdf\u1e9e\xb5\u03bc\u039c\u01c4\u01c5\u01c6"
for p in ["k", "s", "i", "\u03c3", "\xdf", "\xb5", "\u01c5", "[a-z]", "[^a-z]", "[k-l]", "[\u2100-\u2130]",
          "[\u03c3]", "[\u0130]", "\u0131"]:
    print(p, "".join(re.findall(p, chars, re.I)), "".join(re.findall(p, chars, re.I | re.A)))
print(re.findall(r"(?i)stra\xdfe", "STRASSE Stra\xdfe STRA\u1e9eE"))
print(re.match(r"(?i)(\w)\1", "k\u212a") is not None, re.match(r"(?i)(\w)\1", "\u0131I") is not None,
      re.match(r"(?i)(\w)\1", "Ss") is not None, re.match(r"(?i)(.)\1", "\u03c3\u03a3") is not None)
print(re.findall(r"(?i)[\u0391-\u03a9]+", "\u03b1\u03b2\u03b3 ABC \u0391\u0392"), re.findall(r"(?i)caf\xc9", "CAF\xc9 caf\xe9"))
print(re.findall(r"(?iu)\w+", "\xc9t\xc9 \u00e9t\u00e9"), re.sub(r"(?i)\xe4", "ae", "\xc4rger \xe4"))
text = "Gr\xfc\xdfe aus M\xfcnchen: 42\u00a0km, \u0661\u0662\u0663 ok\u2003\u4f60\u597d_1"
print(re.findall(r"\w+", text), re.findall(r"\d+", text), re.findall(r"\s", text))
print(re.findall(r"\w+", text, re.A), re.findall(r"\b\w", text), re.split(r"\W+", text))
print(re.sub(r"\s+", "_", "a\u2028b\u3000c\x85d"), re.findall(r"[^\W\d]+", "x1\xe9\u0663y"))
