# textwrap.dedent (common leading spaces/tabs, whitespace-only lines, mixed tabs and spaces,
# nothing in common) and textwrap.indent (default predicate, a predicate of one's own, line
# endings kept).
from textwrap import dedent, indent


def usage():
    doc = """
        usage: train.py [--epochs N]

            --epochs N   how many passes
          --lr X       learning rate
        """
    return dedent(doc)


print(repr(usage()))
print(usage())
samples = ["    a\n    b\n", "  a\n    b\n      c", "\ta\n\tb", "\ta\n    b", "  \t a\n  \t b\n  \tc",
           "no indent\n  some", "    \n    x\n  \n    y", "   only spaces   ", "", "\n\n", "  x\n\n  y\n",
           "  a\r\n  b\r\n", "    trailing  \n    spaces\t\n", " \t\n\t x\n\t  y"]
for s in samples:
    print(repr(s), "->", repr(dedent(s)))

text = "first line\n\nsecond line\n   \nthird line"
print(repr(indent(text, "> ")))
print(indent(text, "    "))
print(repr(indent(text, "+ ", lambda line: True)))
print(repr(indent(text, "# ", lambda line: line.startswith("s"))))
print(repr(indent("a\r\nb\rc\n", "| ")), repr(indent("", "x")), repr(indent("no newline", "> ")))
print(repr(indent("  \n\t\nx\n", "- ")))
code = dedent("""\
    def f(x):
        return x + 1
    """)
print(indent(code, "    ", lambda ln: ln.strip() != ""), end="")
print(repr(indent(dedent("  a\n    b\n"), "..")))
