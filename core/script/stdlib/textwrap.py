# textwrap, written in the script language: TextWrapper (wrap / fill with width, indents, tab
# expansion, whitespace replacement, sentence endings, long words, hyphen breaks, max_lines with
# a placeholder) and the module's wrap, fill, shorten, dedent and indent, breaking lines where
# CPython 3.11's module breaks them. There is no re module for scripts: the text is cut into
# chunks by a hand-written scanner that follows the same rules (checked against CPython). The
# scanners index a list of the text's characters: indexing or slicing a long str by position
# costs time proportional to its length in the interpreter.

# the whitespace TextWrapper breaks at and replaces: ASCII only, as in CPython (a no-break space
# is part of a word)
_BREAKABLE = "\t\n\x0b\x0c\r "

# what str.strip / str.split take for whitespace in CPython, which the interpreter's str methods
# may not all know
_ANY_SPACE = set("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000")
for _code in range(0x2000, 0x200B):
    _ANY_SPACE.add(chr(_code))

# whether this interpreter's str.isalnum knows letters past ASCII
_UNICODE_CLASSES = "\u00e9".isalnum()


def _non_ascii_word(c):
    # past ASCII, without the interpreter's help: letters, except the spaces and the common
    # punctuation and symbol blocks
    code = ord(c)
    if c in _ANY_SPACE:
        return False
    if 0x80 <= code <= 0xBF or code == 0xD7 or code == 0xF7:
        return False
    if 0x2000 <= code <= 0x2BFF or 0x3000 <= code <= 0x303F or 0xFE30 <= code <= 0xFE4F:
        return False
    return True


def _word_char(c):
    # what a regular expression's \w matches
    if c < "\x80":
        return c == "_" or c.isalnum()
    if _UNICODE_CLASSES:
        return c.isalnum()
    return _non_ascii_word(c)


def _letter(c):
    # \w less the decimal digits
    if c < "\x80":
        return c == "_" or c.isalpha()
    if _UNICODE_CLASSES:
        return c.isalnum() and not c.isdecimal()
    return _non_ascii_word(c)


def _before_dash(c):
    # what may stand just before an em-dash ("--") that splits two words
    return _word_char(c) or c in "!\"'&.,?"


def _blank(s):
    for c in s:
        if c not in _ANY_SPACE:
            return False
    return True


def _strip_right(s):
    end = len(s)
    while end and s[end - 1] in _ANY_SPACE:
        end -= 1
    return s[:end]


def _strip_left(s):
    start = 0
    while start < len(s) and s[start] in _ANY_SPACE:
        start += 1
    return s[start:]


def _words(s):
    # str.split() with CPython's idea of whitespace
    out = []
    current = []
    for c in s:
        if c in _ANY_SPACE:
            if current:
                out.append("".join(current))
                current = []
        else:
            current.append(c)
    if current:
        out.append("".join(current))
    return out


def _expand_tabs(text, tabsize):
    out = []
    column = 0
    for c in text:
        if c == "\t":
            if tabsize > 0:
                pad = tabsize - column % tabsize
                out.append(" " * pad)
                column += pad
        else:
            out.append(c)
            column = 0 if c == "\n" or c == "\r" else column + 1
    return "".join(out)


def _dashes_then_word(cs, at):
    # two or more hyphens from cs[at], then a word character
    end = at
    while end < len(cs) and cs[end] == "-":
        end += 1
    return end - at >= 2 and end < len(cs) and _word_char(cs[end])


def _hyphen_break(cs, at):
    # may a line break after the hyphen at cs[at]? Two letters before it (or letter, hyphen,
    # letter: "x-y-z"), and a letter, maybe a hyphen, and a letter after it
    n = len(cs)
    before = (at >= 2 and _letter(cs[at - 2]) and _letter(cs[at - 1])) or \
             (at >= 3 and _letter(cs[at - 3]) and cs[at - 2] == "-" and _letter(cs[at - 1]))
    if not before or at + 1 >= n or not _letter(cs[at + 1]):
        return False
    if at + 2 < n and _letter(cs[at + 2]):
        return True
    return at + 3 < n and cs[at + 2] == "-" and _letter(cs[at + 3])


def _chunks_on_hyphens(text):
    # Runs of whitespace; em-dashes (2+ hyphens between words); and words, each cut at the first
    # place that ends it: after a hyphen that may break, before whitespace or the end, or before
    # an em-dash (both of those need a hyphen there).
    cs = list(text)
    out = []
    n = len(cs)
    i = 0
    while i < n:
        if cs[i] in _BREAKABLE:
            j = i + 1
            while j < n and cs[j] in _BREAKABLE:
                j += 1
            out.append("".join(cs[i:j]))
            i = j
            continue
        if i > 0 and cs[i] == "-" and _before_dash(cs[i - 1]) and _dashes_then_word(cs, i):
            j = i
            while cs[j] == "-":
                j += 1
            out.append("".join(cs[i:j]))
            i = j
            continue
        q = i + 1
        while True:
            while q < n and cs[q] != "-" and cs[q] not in _BREAKABLE:
                q += 1
            if q >= n or cs[q] in _BREAKABLE:
                end = q
                break
            if _hyphen_break(cs, q):
                end = q + 1
                break
            if _before_dash(cs[q - 1]) and _dashes_then_word(cs, q):
                end = q
                break
            q += 1
        out.append("".join(cs[i:end]))
        i = end
    return out


def _chunks_on_spaces(text):
    out = []
    run = []
    space = None
    for c in text:
        here = c in _BREAKABLE
        if run and here != space:
            out.append("".join(run))
            run = []
        run.append(c)
        space = here
    if run:
        out.append("".join(run))
    return out


def _ends_sentence(chunk):
    # a lowercase ASCII letter, then . ! or ?, then maybe a quote, at the chunk's end
    k = len(chunk)
    if k and chunk[k - 1] in "\"'":
        k -= 1
    return k >= 2 and chunk[k - 1] in ".!?" and "a" <= chunk[k - 2] <= "z"


_PLACEHOLDER_TOO_LARGE = "placeholder too large for max width"


class TextWrapper:
    def __init__(self, width=70, initial_indent="", subsequent_indent="", expand_tabs=True,
                 replace_whitespace=True, fix_sentence_endings=False, break_long_words=True,
                 drop_whitespace=True, break_on_hyphens=True, tabsize=8, *, max_lines=None,
                 placeholder=" [...]"):
        # the options stay plain attributes: a wrapper may be changed between calls
        self.width, self.max_lines, self.placeholder = width, max_lines, placeholder
        self.initial_indent, self.subsequent_indent = initial_indent, subsequent_indent
        self.expand_tabs = expand_tabs
        self.replace_whitespace, self.drop_whitespace = replace_whitespace, drop_whitespace
        self.break_long_words, self.break_on_hyphens = break_long_words, break_on_hyphens
        self.fix_sentence_endings, self.tabsize = fix_sentence_endings, tabsize

    def _munge_whitespace(self, s):
        # tabs expanded, then every other breakable whitespace character made a space
        if self.expand_tabs:
            s = _expand_tabs(s, self.tabsize)
        if self.replace_whitespace:
            s = "".join(" " if c in _BREAKABLE else c for c in s)
        return s

    def _split(self, text):
        if self.break_on_hyphens:
            return _chunks_on_hyphens(text)
        return _chunks_on_spaces(text)

    def _fix_sentence_endings(self, pieces):
        # a single space after a sentence's end becomes two
        i = 0
        while i + 1 < len(pieces):
            if pieces[i + 1] == " " and _ends_sentence(pieces[i]):
                pieces[i + 1] = "  "
                i += 1
            i += 1

    def _handle_long_word(self, todo, line, used, width):
        # the next chunk is longer than a whole line: put as much of it as fits on this line
        # (up to its last hyphen that fits, with break_on_hyphens), or, not breaking long words,
        # all of it on a line of its own
        room = 1 if width < 1 else width - used
        if self.break_long_words:
            word = todo[-1]
            cut = room
            if self.break_on_hyphens and len(word) > room:
                dash = word.rfind("-", 0, room)
                if dash > 0 and any(c != "-" for c in word[:dash]):
                    cut = dash + 1
            line.append(word[:cut])
            todo[-1] = word[cut:]
        elif not line:
            line.append(todo.pop())

    def _wrap_chunks(self, pieces):
        if self.width <= 0:
            raise ValueError("invalid width %r (must be > 0)" % (self.width,))
        if self.max_lines is not None:
            indent = self.subsequent_indent if self.max_lines > 1 else self.initial_indent
            if len(indent) + len(_strip_left(self.placeholder)) > self.width:
                raise ValueError(_PLACEHOLDER_TOO_LARGE)
        todo = list(pieces)
        todo.reverse()  # the next chunk is todo[-1]
        lines = []
        while todo:
            indent = self.subsequent_indent if lines else self.initial_indent
            room = self.width - len(indent)
            if self.drop_whitespace and lines and _blank(todo[-1]):
                todo.pop()  # no line but the first starts with whitespace
            line = []
            used = 0
            while todo and used + len(todo[-1]) <= room:
                used += len(todo[-1])
                line.append(todo.pop())
            if todo and len(todo[-1]) > room:
                self._handle_long_word(todo, line, used, room)
                used = sum(len(c) for c in line)
            if self.drop_whitespace and line and _blank(line[-1]):
                used -= len(line[-1])
                line.pop()
            if not line:
                continue
            only_space_left = not todo or (self.drop_whitespace and len(todo) == 1 and _blank(todo[0]))
            if self.max_lines is None or len(lines) + 1 < self.max_lines or (only_space_left and used <= room):
                lines.append(indent + "".join(line))
                continue
            # the last line there is room for, and text left: end it with the placeholder
            while line:
                if not _blank(line[-1]) and used + len(self.placeholder) <= room:
                    lines.append(indent + "".join(line) + self.placeholder)
                    return lines
                used -= len(line[-1])
                line.pop()
            if lines:
                previous = _strip_right(lines[-1])
                if len(previous) + len(self.placeholder) <= self.width:
                    lines[-1] = previous + self.placeholder
                    return lines
            lines.append(indent + _strip_left(self.placeholder))
            return lines
        return lines

    def _split_chunks(self, text):
        return self._split(self._munge_whitespace(text))

    def wrap(self, text):
        pieces = self._split_chunks(text)
        if self.fix_sentence_endings:
            self._fix_sentence_endings(pieces)
        return self._wrap_chunks(pieces)

    def fill(self, text):
        lines = self.wrap(text)
        return "\n".join(lines)


def wrap(text, width=70, **options):
    return TextWrapper(width=width, **options).wrap(text)


def fill(text, width=70, **options):
    return TextWrapper(width=width, **options).fill(text)


def shorten(text, width, **options):
    # whitespace collapsed, then what fits on one line, the placeholder marking a cut
    one_line = TextWrapper(width=width, max_lines=1, **options)
    return one_line.fill(" ".join(_words(text)))


def dedent(text):
    # Removes the indentation every line with text has in common (spaces and tabs, compared
    # character by character); lines of only spaces and tabs become empty.
    lines = text.split("\n")
    margin = None
    for k in range(len(lines)):
        line = lines[k]
        body = 0
        while body < len(line) and (line[body] == " " or line[body] == "\t"):
            body += 1
        if body == len(line):
            lines[k] = ""
            continue
        lead = line[:body]
        if margin is None:
            margin = lead
        else:
            same = 0
            while same < len(margin) and same < len(lead) and margin[same] == lead[same]:
                same += 1
            margin = margin[:same]
    if margin:
        cut = len(margin)
        lines = [line[cut:] if line.startswith(margin) else line for line in lines]
    return "\n".join(lines)


_LINE_ENDS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _lines_keeping_ends(text):
    # str.splitlines(keepends=True), its line boundaries included
    out = []
    line = []
    after_cr = False
    for c in text:
        if after_cr:
            after_cr = False
            if c == "\n":
                line.append(c)
                out.append("".join(line))
                line = []
                continue
            out.append("".join(line))
            line = []
        line.append(c)
        if c == "\r":
            after_cr = True
        elif c in _LINE_ENDS:
            out.append("".join(line))
            line = []
    if line:
        out.append("".join(line))
    return out


def indent(text, prefix,
           predicate=None):
    # prefix added to the lines predicate accepts: by default those that are not only whitespace
    out = []
    for line in _lines_keeping_ends(text):
        wanted = predicate(line) if predicate is not None else not _blank(line)
        out.append(prefix + line if wanted else line)
    return "".join(out)
