# covers: str methods split, join, strip/lstrip/rstrip, replace, upper, lower, startswith, endswith, format, find, count, zfill, center, ljust, rjust, isdigit
import torch

torch.manual_seed(0)
line = "  layer1.weight , layer1.bias ,layer2.weight  "
parts = [p.strip() for p in line.split(",")]
print(parts)
print("a b  c".split(), "a,b,,c".split(","), "k=v=w".split("=", 1), "x".split(","))
print("-".join(["a", "b", "c"]), "".join(["x", "y"]), ", ".join(str(i) for i in range(3)))
print(repr("  pad  ".strip()), repr("xxhixx".strip("x")), repr("  l".lstrip()), repr("r  ".rstrip()))
print("conv.weight".replace(".", "_"), "aaa".replace("a", "b", 2))
print("Hello".upper(), "Hello".lower(), "hello world".title(), "hello".capitalize())
print("model.pt".endswith(".pt"), "model.pt".startswith("mod"), "x".startswith(("a", "x")))
print("{} has {} params".format("net", 10), "{0}-{1}-{0}".format("a", "b"), "{:.2f}".format(2 / 3))
print("transformer".find("form"), "transformer".find("zzz"), "abcabc".find("c", 3))
print("banana".count("a"), "banana".count("an"), "banana".count("x"))
print("7".zfill(3), "-7".zfill(4), "123".zfill(2))
print(repr("mid".center(9)), repr("mid".center(8, "*")), repr("l".ljust(4, ".")), repr("r".rjust(4)))
print("123".isdigit(), "12a".isdigit(), "".isdigit(), "abc".isalpha(), " ".isspace())
print("layer.0.weight".split(".")[1].isdigit(), int("layer.3.bias".split(".")[1]) + 1)
print("a\tb\nc".split(), "line1\nline2".splitlines(), "A-B".lower().upper())
name = "Block"
print(name[0].lower() + name[1:], name * 2, len(name), name.index("o"))
print(str(12).rjust(6, "0"), "%d items, %.2f loss, %s" % (3, 0.5, "ok"))
print(ord("a"), chr(98), "abc" < "abd", "z" in "xyz")
