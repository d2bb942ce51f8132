# textwrap.shorten and TextWrapper's max_lines / placeholder: where text is cut, whitespace
# collapsed, custom placeholders, and the ValueError messages.
import textwrap
from textwrap import TextWrapper, shorten

s = "Hello  world!   This is a sentence that will be shortened to fit the width."
for width in [12, 13, 15, 20, 30, 60, 80, 100]:
    print(width, repr(shorten(s, width)))
print(repr(shorten("Hello world!", width=12)), repr(shorten("Hello world!", width=11)))
print(repr(shorten("Hello world", width=10, placeholder="...")), repr(shorten("  lots   of\n\tspace  ", 30)))
print(repr(shorten("supercalifragilistic word", 15)), repr(shorten("a b c d e f g", 9, placeholder=" ~")))
print(repr(shorten("state-of-the-art results everywhere", 20)), repr(shorten("", 10)))

text = ("Fuselab runs model scripts and prints exactly what CPython prints, line for line, "
        "so its output can be compared byte for byte with the reference.")
for max_lines in [1, 2, 3, 4, 10]:
    print(max_lines, TextWrapper(width=30, max_lines=max_lines).wrap(text))
print(TextWrapper(width=30, max_lines=2, placeholder=" (more)").wrap(text))
print(TextWrapper(width=20, max_lines=2, initial_indent="> ", subsequent_indent="  ").wrap(text))
print(TextWrapper(width=12, max_lines=2, placeholder="...").wrap("abcdefghijklmnopqrstuvwxyz abc"))
print(TextWrapper(width=10, max_lines=3, break_long_words=False).wrap("short averyveryverylongword end"))
print(TextWrapper(width=15, max_lines=1).fill("exactly fifteen"))
for kw in [dict(width=5, max_lines=1), dict(width=8, max_lines=2, subsequent_indent="    "),
           dict(width=4, max_lines=1, placeholder=" [...]")]:
    try:
        print(TextWrapper(**kw).wrap(text))
    except ValueError as e:
        print("ValueError", e)
try:
    shorten(text, 3)
except ValueError as e:
    print("ValueError", e)
