# json, written in the script language: dumps / loads (and dump / load refuse: no files) with
# indent, sort_keys, separators and default, as CPython 3.11's module formats them.


class JSONDecodeError(ValueError):
    def __init__(self, msg, doc, pos):
        lineno = doc.count("\n", 0, pos) + 1
        colno = pos - doc.rfind("\n", 0, pos)
        super().__init__("%s: line %d column %d (char %d)" % (msg, lineno, colno, pos))
        self.msg = msg
        self.pos = pos
        self.lineno = lineno
        self.colno = colno


_ESC = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _str(s, ensure_ascii):
    out = '"'
    for ch in s:
        if ch in _ESC:
            out += _ESC[ch]
        elif ord(ch) < 0x20 or (ensure_ascii and ord(ch) > 0x7E):
            n = ord(ch)
            if n > 0xFFFF:
                n -= 0x10000
                out += "\\u%04x\\u%04x" % (0xD800 + (n >> 10), 0xDC00 + (n & 0x3FF))
            else:
                out += "\\u%04x" % n
        else:
            out += ch
    return out + '"'


def _float(f):
    if f != f:
        return "NaN"
    if f == float("inf"):
        return "Infinity"
    if f == float("-inf"):
        return "-Infinity"
    return repr(f)


def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None, indent=None,
          separators=None, default=None, sort_keys=False):
    if isinstance(indent, int):
        indent = " " * indent
    if separators is None:
        separators = (", ", ": ") if indent is None else (",", ": ")
    item_sep, key_sep = separators

    def enc(o, level):
        if o is None:
            return "null"
        if o is True:
            return "true"
        if o is False:
            return "false"
        if isinstance(o, int):
            return str(o)
        if isinstance(o, float):
            if not allow_nan and (o != o or o in (float("inf"), float("-inf"))):
                raise ValueError("Out of range float values are not JSON compliant")
            return _float(o)
        if isinstance(o, str):
            return _str(o, ensure_ascii)
        if isinstance(o, (list, tuple)):
            if not o:
                return "[]"
            parts = [enc(v, level + 1) for v in o]
            if indent is None:
                return "[" + item_sep.join(parts) + "]"
            pad = "\n" + indent * (level + 1)
            return "[" + pad + (item_sep + pad).join(parts) + "\n" + indent * level + "]"
        if isinstance(o, dict):
            if not o:
                return "{}"
            items = list(o.items())
            if sort_keys:
                items = sorted(items, key=lambda kv: kv[0])
            parts = []
            for k, v in items:
                if isinstance(k, str):
                    ks = k
                elif k is True:
                    ks = "true"
                elif k is False:
                    ks = "false"
                elif k is None:
                    ks = "null"
                elif isinstance(k, float):
                    ks = _float(k)
                elif isinstance(k, int):
                    ks = str(k)
                elif skipkeys:
                    continue
                else:
                    raise TypeError("keys must be str, int, float, bool or None, not %s" % type(k).__name__)
                parts.append(_str(ks, ensure_ascii) + key_sep + enc(v, level + 1))
            if indent is None:
                return "{" + item_sep.join(parts) + "}"
            pad = "\n" + indent * (level + 1)
            return "{" + pad + (item_sep + pad).join(parts) + "\n" + indent * level + "}"
        if default is not None:
            return enc(default(o), level)
        raise TypeError("Object of type %s is not JSON serializable" % type(o).__name__)

    return enc(obj, 0)


class _Parser:
    def __init__(self, s):
        self.s = s
        self.i = 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] in " \t\n\r":
            self.i += 1

    def fail(self, msg):
        raise JSONDecodeError(msg, self.s, self.i)

    def value(self):
        self.ws()
        if self.i >= len(self.s):
            self.fail("Expecting value")
        c = self.s[self.i]
        if c == "{":
            return self.obj()
        if c == "[":
            return self.arr()
        if c == '"':
            return self.string()
        for word, val in (("null", None), ("true", True), ("false", False), ("NaN", float("nan")),
                          ("Infinity", float("inf")), ("-Infinity", float("-inf"))):
            if self.s.startswith(word, self.i):
                self.i += len(word)
                return val
        return self.number()

    def number(self):
        j = self.i
        if j < len(self.s) and self.s[j] == "-":
            j += 1
        start_digits = j
        while j < len(self.s) and self.s[j].isdigit():
            j += 1
        if j == start_digits:
            self.fail("Expecting value")
        is_float = False
        if j < len(self.s) and self.s[j] == ".":
            is_float = True
            j += 1
            while j < len(self.s) and self.s[j].isdigit():
                j += 1
        if j < len(self.s) and self.s[j] in "eE":
            is_float = True
            j += 1
            if j < len(self.s) and self.s[j] in "+-":
                j += 1
            while j < len(self.s) and self.s[j].isdigit():
                j += 1
        text = self.s[self.i:j]
        self.i = j
        return float(text) if is_float else int(text)

    def string(self):
        self.i += 1
        out = ""
        while True:
            if self.i >= len(self.s):
                raise JSONDecodeError("Unterminated string starting at", self.s, self.i)
            c = self.s[self.i]
            if c == '"':
                self.i += 1
                return out
            if c == "\\":
                e = self.s[self.i + 1:self.i + 2]
                if e == "u":
                    out += chr(int(self.s[self.i + 2:self.i + 6], 16))
                    self.i += 6
                    continue
                m = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
                if e not in m:
                    self.fail("Invalid \\escape")
                out += m[e]
                self.i += 2
                continue
            out += c
            self.i += 1

    def arr(self):
        self.i += 1
        out = []
        self.ws()
        if self.i < len(self.s) and self.s[self.i] == "]":
            self.i += 1
            return out
        while True:
            out.append(self.value())
            self.ws()
            if self.i < len(self.s) and self.s[self.i] == ",":
                self.i += 1
                continue
            if self.i < len(self.s) and self.s[self.i] == "]":
                self.i += 1
                return out
            self.fail("Expecting ',' delimiter")

    def obj(self):
        self.i += 1
        out = {}
        self.ws()
        if self.i < len(self.s) and self.s[self.i] == "}":
            self.i += 1
            return out
        while True:
            self.ws()
            if self.i >= len(self.s) or self.s[self.i] != '"':
                self.fail("Expecting property name enclosed in double quotes")
            k = self.string()
            self.ws()
            if self.i >= len(self.s) or self.s[self.i] != ":":
                self.fail("Expecting ':' delimiter")
            self.i += 1
            out[k] = self.value()
            self.ws()
            if self.i < len(self.s) and self.s[self.i] == ",":
                self.i += 1
                continue
            if self.i < len(self.s) and self.s[self.i] == "}":
                self.i += 1
                return out
            self.fail("Expecting ',' delimiter")


def loads(s, **kwargs):
    if not isinstance(s, str):
        raise TypeError("the JSON object must be str, bytes or bytearray, not %s" % type(s).__name__)
    p = _Parser(s)
    v = p.value()
    p.ws()
    if p.i != len(s):
        p.fail("Extra data")
    return v


def dump(obj, fp, **kwargs):
    fp.write(dumps(obj, **kwargs))


def load(fp, **kwargs):
    return loads(fp.read(), **kwargs)
