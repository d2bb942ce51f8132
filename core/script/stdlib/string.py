# string, written in the script language: the character-class constants, capwords, Template
# ($name / ${name} / $$ substitution with CPython 3.11's messages) and Formatter (str.format's
# parsing and field lookup as overridable methods). There are no regular expressions in model
# scripts, so a Template subclass may change `delimiter` but not `idpattern`, `braceidpattern`,
# `flags` or `pattern` (such a class is refused when it is defined).


def _span(first, last):
    return "".join(chr(c) for c in range(ord(first), ord(last) + 1))


whitespace = "".join(chr(c) for c in (32, 9, 10, 13, 11, 12))
ascii_lowercase = _span("a", "z")
ascii_uppercase = _span("A", "Z")
ascii_letters = "".join((ascii_lowercase, ascii_uppercase))
digits = _span("0", "9")
hexdigits = digits + _span("a", "f") + _span("A", "F")
octdigits = _span("0", "7")
# the printable ASCII characters that are neither letters, digits nor space, in code order
punctuation = "".join(chr(c) for c in range(33, 127) if chr(c) not in ascii_letters and chr(c) not in digits)
printable = "".join((digits, ascii_letters, punctuation, whitespace))


def capwords(s, sep=None):
    # each word capitalized; with no sep, runs of whitespace become one space and the ends go
    words = s.split() if sep is None else s.split(sep)
    joiner = " " if sep is None else sep
    return joiner.join(w.capitalize() for w in words)


# ---------------------------------------------------------------- Template

_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _line_and_column(text, at):
    # 1-based line and column of text[at], lines ending where str.splitlines ends them
    line = 1
    column = 1
    after_cr = False
    for c in text[:at]:
        if after_cr and c == "\n":
            after_cr = False
            continue
        after_cr = c == "\r"
        if c in _LINE_BREAKS:
            line += 1
            column = 1
        else:
            column += 1
    return line, column


def _id_start(c):
    return c == "_" or c in ascii_letters


def _id_char(c):
    return c == "_" or c in ascii_letters or c in digits


def _placeholders(text, delim):
    # Splits text into ("text", s), ("escaped", None), ("named", name), ("braced", name) and
    # ("invalid", position of the delimiter) pieces; identifiers are ASCII letters, digits and
    # underscores, not starting with a digit (either case). It works on a list of the
    # characters: the interpreter indexes a str by position in time proportional to its length.
    cs = list(text)
    ds = list(delim)
    n = len(cs)
    width = len(ds)

    def delim_at(k):
        return width > 0 and cs[k:k + width] == ds

    i = 0
    j = 0
    while j < n:
        if not delim_at(j):
            j += 1
            continue
        if j > i:
            yield ("text", "".join(cs[i:j]))
        k = j + width
        if delim_at(k):
            yield ("escaped", None)
            i = j = k + width
            continue
        if k < n and _id_start(cs[k]):
            end = k + 1
            while end < n and _id_char(cs[end]):
                end += 1
            yield ("named", "".join(cs[k:end]))
            i = j = end
            continue
        if k + 1 < n and cs[k] == "{" and _id_start(cs[k + 1]):
            end = k + 2
            while end < n and _id_char(cs[end]):
                end += 1
            if end < n and cs[end] == "}":
                yield ("braced", "".join(cs[k + 1:end]))
                i = j = end + 1
                continue
        yield ("invalid", j)
        i = j = k
    if i < n:
        yield ("text", "".join(cs[i:]))


class Template:
    delimiter = "$"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in ("idpattern", "braceidpattern", "flags", "pattern"):
            if getattr(cls, name, None) is not None:
                raise NotImplementedError("string.Template.%s cannot be changed in model scripts: it is a regular expression, and there is no re module (only delimiter can be)" % name)

    def __init__(self, template):
        self.template = template

    def _lookup(self, name, args, kws):
        # the keywords first, then the mapping given
        if name in kws or not args:
            return kws[name]
        return args[0][name]

    def _check_args(self, method, args):
        if len(args) > 1:
            raise TypeError("Template.%s() takes from 1 to 2 positional arguments but %d were given" % (method, len(args) + 1))

    def substitute(self, *args, **kws):
        self._check_args("substitute", args)
        out = []
        for kind, value in _placeholders(self.template, self.delimiter):
            if kind == "text":
                out.append(value)
            elif kind == "escaped":
                out.append(self.delimiter)
            elif kind == "invalid":
                # CPython names the delimiter's last character
                line, column = _line_and_column(self.template, value + len(self.delimiter) - 1)
                raise ValueError("Invalid placeholder in string: line %d, col %d" % (line, column))
            else:
                out.append(str(self._lookup(value, args, kws)))
        return "".join(out)

    def safe_substitute(self, *args, **kws):
        # what cannot be substituted is left as it was written
        self._check_args("safe_substitute", args)
        out = []
        for kind, value in _placeholders(self.template, self.delimiter):
            if kind == "text":
                out.append(value)
            elif kind == "escaped" or kind == "invalid":
                out.append(self.delimiter)
            else:
                try:
                    out.append(str(self._lookup(value, args, kws)))
                except KeyError:
                    if kind == "named":
                        out.append(self.delimiter + value)
                    else:
                        out.append(self.delimiter + "{" + value + "}")
        return "".join(out)

    def get_identifiers(self):
        names = []
        for kind, value in _placeholders(self.template, self.delimiter):
            if (kind == "named" or kind == "braced") and value not in names:
                names.append(value)
        return names

    def is_valid(self):
        for kind, value in _placeholders(self.template, self.delimiter):
            if kind == "invalid":
                return False
        return True


# ---------------------------------------------------------------- Formatter

def _parse_format(text):
    # (literal text, field name, format spec, conversion) per replacement field, as str.format
    # reads them; a doubled brace ends a piece with one brace in its literal text, and text after
    # the last field comes with None for the other three
    cs = list(text)
    n = len(cs)
    i = 0
    literal = []
    while i < n:
        c = cs[i]
        if c == "}":
            if i + 1 < n and cs[i + 1] == "}":
                literal.append("}")
                yield ("".join(literal), None, None, None)
                literal = []
                i += 2
                continue
            raise ValueError("Single '}' encountered in format string")
        if c != "{":
            literal.append(c)
            i += 1
            continue
        if i + 1 >= n:
            raise ValueError("Single '{' encountered in format string")
        if cs[i + 1] == "{":
            literal.append("{")
            yield ("".join(literal), None, None, None)
            literal = []
            i += 2
            continue
        name, conversion, spec, i = _parse_field(cs, i + 1)
        yield ("".join(literal), name, spec, conversion)
        literal = []
    if literal:
        yield ("".join(literal), None, None, None)


def _parse_field(cs, i):
    # the field that starts at cs[i] (just past its "{"): (name, conversion, spec, where the
    # text goes on after its "}")
    n = len(cs)
    start = i
    while True:
        if i >= n:
            raise ValueError("expected '}' before end of string")
        c = cs[i]
        if c == "[":
            i += 1
            while i < n and cs[i] != "]":
                i += 1
            if i >= n:
                raise ValueError("expected '}' before end of string")
            i += 1
            continue
        if c == "{":
            raise ValueError("unexpected '{' in field name")
        if c == "}" or c == ":" or c == "!":
            break
        i += 1
    name = "".join(cs[start:i])
    conversion = None
    if cs[i] == "}":
        return name, conversion, "", i + 1
    if cs[i] == "!":
        if i + 1 >= n:
            raise ValueError("end of string while looking for conversion specifier")
        conversion = cs[i + 1]
        i += 2
        if i >= n:
            raise ValueError("unmatched '{' in format spec")
        if cs[i] == "}":
            return name, conversion, "", i + 1
        if cs[i] != ":":
            raise ValueError("expected ':' after conversion specifier")
    # cs[i] is ":": the spec runs to the "}" that balances the field's "{"
    i += 1
    spec_start = i
    depth = 1
    while i < n:
        c = cs[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return name, conversion, "".join(cs[spec_start:i]), i + 1
        i += 1
    raise ValueError("unmatched '{' in format spec")


def _as_index(text):
    if text and all(c in digits for c in text):
        return int(text)
    return text


def _field_parts(name):
    # (first, rest): first is an int when all digits; rest yields (True, attribute) and
    # (False, index) steps, checked as they are reached
    cut = len(name)
    for j in range(len(name)):
        if name[j] == "." or name[j] == "[":
            cut = j
            break
    return _as_index(name[:cut]), _field_steps(name, cut)


def _field_steps(name, i):
    n = len(name)
    while i < n:
        if name[i] == ".":
            j = i + 1
            while j < n and name[j] != "." and name[j] != "[":
                j += 1
            if j == i + 1:
                raise ValueError("Empty attribute in format string")
            yield (True, name[i + 1:j])
            i = j
        else:
            close = name.find("]", i + 1)
            if close < 0:
                raise ValueError("Missing ']' in format string")
            if close == i + 1:
                raise ValueError("Empty attribute in format string")
            yield (False, _as_index(name[i + 1:close]))
            i = close + 1
            if i < n and name[i] != "." and name[i] != "[":
                raise ValueError("Only '.' or '[' may follow ']' in format field specifier")


def _ascii(value):
    out = []
    for c in repr(value):
        code = ord(c)
        if code < 128:
            out.append(c)
        elif code < 256:
            out.append("\\x%02x" % code)
        elif code < 65536:
            out.append("\\u%04x" % code)
        else:
            out.append("\\U%08x" % code)
    return "".join(out)


_SWITCHED = "cannot switch from manual field specification to automatic field numbering"


class Formatter:
    # str.format's machinery as methods a subclass may override: parse cuts the format string
    # into fields, get_field / get_value find each field's object, convert_field applies !r /
    # !s / !a, format_field applies the spec, check_unused_args may object to arguments left over

    def format(*args, **kwargs):
        # the format string is positional only: a keyword of that name is a field's value
        if len(args) < 2:
            raise TypeError("Formatter.format() missing 1 required positional argument: 'format_string'")
        return args[0].vformat(args[1], args[2:], kwargs)

    def vformat(self, fmt, args, kwargs):
        seen = set()
        text, _ = self._vformat(fmt, args, kwargs, seen, 2)
        self.check_unused_args(seen, args, kwargs)
        return text

    def _vformat(self, text, args, kwargs, seen, depth, next_auto=0):
        # next_auto: the number the next "{}" gets, or False once a field was numbered by hand;
        # a spec may hold fields of its own, two levels deep at most
        if depth < 0:
            raise ValueError("Max string recursion exceeded")
        out = []
        for literal, name, spec, conversion in self.parse(text):
            if literal:
                out.append(literal)
            if name is None:
                continue
            if name == "":
                if next_auto is False:
                    raise ValueError(_SWITCHED)
                name = str(next_auto)
                next_auto += 1
            elif all(c in digits for c in name):
                if next_auto:
                    raise ValueError(_SWITCHED)
                next_auto = False
            value, key = self.get_field(name, args, kwargs)
            seen.add(key)
            value = self.convert_field(value, conversion)
            spec, next_auto = self._vformat(spec, args, kwargs, seen, depth - 1, next_auto)
            out.append(self.format_field(value, spec))
        return "".join(out), next_auto

    def parse(self, text):
        return _parse_format(text)

    def get_field(self, name, args, kwargs):
        # (the object, the argument it came from: a position or a keyword)
        first, steps = _field_parts(name)
        found = self.get_value(first, args, kwargs)
        for is_attribute, part in steps:
            found = getattr(found, part) if is_attribute else found[part]
        return found, first

    def get_value(self, key, args, kwds):
        return args[key] if isinstance(key, int) else kwds[key]

    def check_unused_args(self, used, args, kwargs):
        pass

    def format_field(self, value, spec):
        return format(value, spec)

    def convert_field(self, value, conv):
        if conv is None:
            return value
        convert = {"s": str, "r": repr, "a": _ascii}.get(conv)
        if convert is None:
            raise ValueError("Unknown conversion specifier %s" % (conv,))
        return convert(value)
