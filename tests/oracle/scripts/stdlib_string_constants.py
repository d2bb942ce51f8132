# string's constants (their exact text, lengths and what each character class holds) and
# string.capwords with and without a separator.
import string

for name in ["ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits",
             "octdigits", "punctuation", "printable", "whitespace"]:
    value = getattr(string, name)
    print("%-15s %3d %r" % (name, len(value), value))
print(string.printable == string.digits + string.ascii_letters + string.punctuation + string.whitespace)
print(all(c.isalnum() for c in string.ascii_letters + string.digits), all(c.isspace() for c in string.whitespace))
print(sorted(set(string.punctuation)) == list(string.punctuation), "_" in string.punctuation, " " in string.printable)


def slug(text):
    keep = string.ascii_lowercase + string.digits
    return "".join(c if c in keep else "-" for c in text.lower()).strip("-")


print(slug("ResNet-50 (ImageNet, 76.1%)"))
print(["".join(c for c in w if c not in string.punctuation) for w in "Hello, world! It's 3:15.".split()])
print(int("ff", 16) == sum(string.hexdigits.index(c) * 16 ** i for i, c in enumerate(reversed("ff"))))

for text in ["hello world", "  leading and   inner   spaces  ", "o'neil mcDONALD", "tab\tand\nnewline",
             "", "   ", "x", "123 abc", "ALL CAPS WORDS", "a-b c-d"]:
    print(repr(string.capwords(text)))
print(repr(string.capwords("a-b-c", "-")), repr(string.capwords("one,two,,three", ",")),
      repr(string.capwords("  two  spaces ", " ")), repr(string.capwords("x::y", "::")))
