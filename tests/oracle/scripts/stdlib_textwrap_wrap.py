# textwrap.wrap / fill / TextWrapper on ordinary English text: widths, initial and subsequent
# indents, hyphenated words (break_on_hyphens on and off), long words and URLs
# (break_long_words on and off), tabs, sentence endings, whitespace kept or dropped.
import textwrap
from textwrap import TextWrapper, fill, wrap

text = ("The quick brown fox jumps over the lazy dog. Training deep networks is a well-known "
        "exercise in patience: state-of-the-art models need end-to-end pipelines, careful "
        "learning-rate schedules and a lot of compute. Mr. Smith said so!  Did he? Yes.")
for width in [10, 20, 35, 50, 70, 200]:
    print("--- width", width)
    print(fill(text, width))
print(wrap(text, 40))
print(wrap("", 10), wrap("   ", 10), wrap("\n\n", 5), fill("one", 1))

w = TextWrapper(width=36, initial_indent="* ", subsequent_indent="  ")
print(w.fill(text))
w.width = 24
w.initial_indent = "  1. "
w.subsequent_indent = "     "
print(w.fill("Compile the model, run three training steps, then print the loss each time."))

hyph = "A self-contained, ready-to-use, plug-and-play pre-trained multi-head self-attention layer."
for width in [8, 12, 17, 25]:
    print(width, wrap(hyph, width))
    print(width, wrap(hyph, width, break_on_hyphens=False))
print(wrap("foo--bar--baz qux -- quux what?--no! --verbose --learning-rate=3e-4", 12))

long = "See https://example.com/a/really/long/path/to-some-document-with-dashes.html for details."
for width in [10, 20, 30]:
    print(width, wrap(long, width))
    print(width, wrap(long, width, break_long_words=False))
print(wrap("Supercalifragilisticexpialidocious is long", 10))
print(wrap("Supercalifragilisticexpialidocious is long", 10, break_long_words=False))
print(wrap("xxxxxxxxxx-yyyyyyyyyy-zzzzzzzzzz", 15), wrap("----------abc", 4), wrap("aaaa-bbbbbbbbbbb", 8))

tabbed = "col1\tcol2\tcol3\nnext\tline\there"
print(wrap(tabbed, 18))
print(wrap(tabbed, 18, expand_tabs=False))
print(wrap(tabbed, 18, replace_whitespace=False))
print(wrap(tabbed, 18, tabsize=4))
print(wrap("a\tb", 20, expand_tabs=False, replace_whitespace=False))

sentences = "This is one. This is two! Is this three? \"Quoted.\" Then 3.5 and e.g. an abbreviation."
print(fill(sentences, 30, fix_sentence_endings=True))
print(wrap(sentences, 200, fix_sentence_endings=True))
print(wrap("  leading and trailing   spaces  ", 12))
print(wrap("  leading and trailing   spaces  ", 12, drop_whitespace=False))
print(wrap("word " * 12, 11, initial_indent=">>> ", subsequent_indent="... "))
print(wrap("tiny", 3, initial_indent="-----"), wrap("ab cd", 2, initial_indent="    "))
w = TextWrapper()
print(w.width, repr(w.initial_indent), w.expand_tabs, w.replace_whitespace, w.fix_sentence_endings,
      w.break_long_words, w.drop_whitespace, w.break_on_hyphens, w.tabsize, w.max_lines, repr(w.placeholder))
for bad in [0, -5]:
    try:
        wrap("some text", bad)
    except ValueError as e:
        print("ValueError", e)
