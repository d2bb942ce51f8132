# ast, written in the script language: literal_eval only, as CPython 3.11's module has it, over a
# tokenizer and expression parser of its own (the interpreter has no compile()). The whole expression
# grammar is parsed, so a name, call or operator gives ValueError("malformed node or string ...") and
# text that is not an expression gives SyntaxError with CPython's message for the common mistakes.
# The interpreter has no complex and no bytes type: a j-suffixed number or a b'' literal parses but
# gives ValueError where CPython would return a value. \N{...} escapes give SyntaxError as the
# interpreter's own lexer does. Other attributes of CPython's ast module are not provided.

PyCF_ONLY_AST = 1024

_KEYWORDS = ("False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
             "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
             "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield")
_OPS3 = ("**=", "//=", ">>=", "<<=", "...")
_OPS2 = ("->", ":=", "==", "!=", "<=", ">=", "**", "//", "<<", ">>", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
         "^=", "@=")
_OPS1 = "()[]{},:;.+-*/%&|^~<>=@"
_OPEN = "([{"
_CLOSE = ")]}"
_DIGITS = "0123456789"
_HEX = "0123456789abcdefABCDEF"
_BINOPS = {"|": (5, "BitOr"), "^": (6, "BitXor"), "&": (7, "BitAnd"), "<<": (8, "LShift"), ">>": (8, "RShift"),
           "+": (9, "Add"), "-": (9, "Sub"), "*": (10, "Mult"), "/": (10, "Div"), "//": (10, "FloorDiv"),
           "%": (10, "Mod"), "@": (10, "MatMult")}
_ENDERS = (",", ")", "]", "}", ":")
_COMPARE = ("==", "!=", "<", "<=", ">", ">=")
_ESCAPES = {"\n": "", "\\": "\\", "'": "'", '"': '"', "a": "\x07", "b": "\x08", "f": "\x0c", "n": "\n",
            "r": "\r", "t": "\t", "v": "\x0b"}
_EXPR_NAMES = {"Attribute": "attribute", "Subscript": "subscript", "Starred": "starred", "Name": "name",
               "List": "list", "Tuple": "tuple", "Lambda": "lambda", "Call": "function call",
               "BoolOp": "expression", "BinOp": "expression", "UnaryOp": "expression",
               "GeneratorExp": "generator expression", "Yield": "yield expression",
               "YieldFrom": "yield expression", "Await": "await expression", "ListComp": "list comprehension",
               "SetComp": "set comprehension", "DictComp": "dict comprehension", "Dict": "dict literal",
               "Set": "set display", "JoinedStr": "f-string expression", "Compare": "comparison",
               "IfExp": "conditional expression", "NamedExpr": "named expression"}


class _Node:
    # kind is CPython's ast class name; a holds a Constant's value, a container's elements, an operator...
    def __init__(self, kind, line, a=None, b=None, c=None):
        self.kind = kind
        self.lineno = line
        self.a = a
        self.b = b
        self.c = c

    def __repr__(self):
        return "<ast.%s object at 0x%x>" % (self.kind, id(self))


class _Tok:
    def __init__(self, type, value, line, level):
        self.type = type      # NAME NUMBER STRING OP ERR NEWLINE INDENT END
        self.value = value
        self.line = line
        self.level = level    # bracket nesting after this token


def _syntax_error(msg, line, cls=None):
    e = (cls or SyntaxError)("%s (<unknown>, line %d)" % (msg, line))
    e.msg = msg
    e.filename = "<unknown>"
    return e


class _Stop(Exception):
    pass


def _ident_char(c):
    return ("a" <= c <= "z") or ("A" <= c <= "Z") or ("0" <= c <= "9") or c == "_" or ord(c) >= 128


_NONPRINTABLE = ((0x80, 0xA0), (0xAD, 0xAD), (0x600, 0x605), (0x61C, 0x61C), (0x6DD, 0x6DD), (0x70F, 0x70F),
                 (0x1680, 0x1680), (0x180E, 0x180E), (0x2000, 0x200F), (0x2028, 0x202F), (0x205F, 0x206F),
                 (0x3000, 0x3000), (0xD800, 0xF8FF), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0xE0000, 0x10FFFF))
# symbols and punctuation outside ASCII that are not identifier characters (no unicodedata here)
_NOT_IDENT = ((0xA1, 0xA9), (0xAB, 0xB4), (0xB6, 0xB6), (0xB8, 0xB9), (0xBB, 0xBF), (0xD7, 0xD7), (0xF7, 0xF7),
              (0x2010, 0x2027), (0x2030, 0x203E), (0x2041, 0x2053), (0x2055, 0x205E), (0x20A0, 0x20CF),
              (0x2190, 0x23FF), (0x2500, 0x27BF), (0x2900, 0x2BFF), (0x3001, 0x3004), (0x3008, 0x3020),
              (0x3030, 0x3030), (0xFF01, 0xFF0F), (0xFF1A, 0xFF20), (0xFF3B, 0xFF3E), (0xFF40, 0xFF40),
              (0xFF5B, 0xFF65), (0x1F000, 0x1FAFF))


def _in_ranges(n, ranges):
    for lo, hi in ranges:
        if lo <= n <= hi:
            return True
    return False


def _check_ident_char(ch, line):
    n = ord(ch)
    if _in_ranges(n, _NONPRINTABLE):
        raise _syntax_error("invalid non-printable character U+%04X" % n, line)
    if _in_ranges(n, _NOT_IDENT):
        raise _syntax_error("invalid character '%s' (U+%04X)" % (ch, n), line)


def _nlines(src):
    n = src.count("\n")
    if src and not src.endswith("\n"):
        n += 1
    return n


def _tokenize(src):
    toks = []
    n = len(src)
    i = 0
    line = 1
    parens = []          # [char, line] of each open bracket
    indent = 0
    line_start = True
    line_has_tokens = False
    while True:
        if line_start and not parens:
            col = 0
            while i < n and src[i] in " \t\x0c":
                col = 0 if src[i] == "\x0c" else (col // 8 + 1) * 8 if src[i] == "\t" else col + 1
                i += 1
            line_start = False
            if i < n and src[i] not in "#\n\\" and col != indent:
                toks.append(_Tok("INDENT" if col > indent else "DEDENT", None, line, 0))
                indent = col
        if i >= n:
            if line_has_tokens and not parens:
                toks.append(_Tok("NEWLINE", None, line, len(parens)))
            toks.append(_Tok("END", None, _nlines(src), len(parens)))
            return toks, parens
        c = src[i]
        if c == "\n":
            if not parens and line_has_tokens:
                toks.append(_Tok("NEWLINE", None, line, 0))
                line_has_tokens = False
            line += 1
            i += 1
            line_start = not parens
            continue
        if c in " \t\x0c":
            i += 1
            continue
        if c == "#":
            while i < n and src[i] != "\n":
                i += 1
            continue
        if c == "\\":
            if i + 1 >= n or src[i + 1] != "\n":
                raise _syntax_error("unexpected character after line continuation character", line)
            if i + 2 >= n:
                raise _syntax_error("unexpected EOF while parsing", line)
            i += 2
            line += 1
            continue
        start = i
        if ("a" <= c <= "z") or ("A" <= c <= "Z") or c == "_" or ord(c) >= 128:
            saw_b = saw_u = saw_r = saw_f = False
            while i < n:
                ch = src[i]
                if not (saw_b or saw_u or saw_f) and ch in "bB":
                    saw_b = True
                elif not (saw_b or saw_u or saw_r or saw_f) and ch in "uU":
                    saw_u = True
                elif not (saw_r or saw_u) and ch in "rR":
                    saw_r = True
                elif not (saw_f or saw_b or saw_u) and ch in "fF":
                    saw_f = True
                else:
                    break
                i += 1
            if i < n and i > start and src[i] in "'\"":
                i, line = _read_string(src, i, line, src[start:i].lower(), toks, len(parens))
                line_has_tokens = True
                continue
            while i < n and _ident_char(src[i]):
                i += 1
            for ch in src[start:i]:
                if ord(ch) >= 128:
                    _check_ident_char(ch, line)
            toks.append(_Tok("NAME", src[start:i], line, len(parens)))
            line_has_tokens = True
            continue
        if c in "'\"":
            i, line = _read_string(src, i, line, "", toks, len(parens))
            line_has_tokens = True
            continue
        if c in _DIGITS or (c == "." and i + 1 < n and src[i + 1] in _DIGITS):
            i = _read_number(src, i, line)
            toks.append(_Tok("NUMBER", src[start:i], line, len(parens)))
            line_has_tokens = True
            continue
        line_has_tokens = True
        if src[i:i + 3] in _OPS3:
            toks.append(_Tok("OP", src[i:i + 3], line, len(parens)))
            i += 3
            continue
        if src[i:i + 2] in _OPS2:
            toks.append(_Tok("OP", src[i:i + 2], line, len(parens)))
            i += 2
            continue
        if c in _OPEN:
            if len(parens) >= 200:
                raise _syntax_error("too many nested parentheses", line)
            parens.append([c, line])
        elif c in _CLOSE:
            if not parens:
                raise _syntax_error("unmatched '%s'" % c, line)
            o = parens.pop()
            if _OPEN.index(o[0]) != _CLOSE.index(c):
                msg = "closing parenthesis '%s' does not match opening parenthesis '%s'" % (c, o[0])
                if o[1] != line:
                    msg += " on line %d" % o[1]
                raise _syntax_error(msg, line)
        if c in _OPS1:
            toks.append(_Tok("OP", c, line, len(parens)))
        elif ord(c) < 32 or ord(c) == 127:
            raise _syntax_error("invalid non-printable character U+%04X" % ord(c), line)
        else:
            toks.append(_Tok("ERR", c, line, len(parens)))
        i += 1


def _read_string(src, i, line, prefix, toks, level):
    n = len(src)
    q = src[i]
    triple = src[i:i + 3] == q * 3
    i += 3 if triple else 1
    start_line = line
    body_start = i
    while True:
        if i >= n:
            kind = "triple-quoted string" if triple else "string"
            raise _syntax_error("unterminated %s literal (detected at line %d)" % (kind, _nlines(src)), start_line)
        c = src[i]
        if c == "\\":
            i += 1
            if i < n and src[i] == "\n":
                line += 1
            i += 1
            continue
        if c == "\n":
            if not triple:
                raise _syntax_error("unterminated string literal (detected at line %d)" % line, start_line)
            line += 1
        elif c == q and (not triple or src[i:i + 3] == q * 3):
            toks.append(_Tok("STRING", [prefix, src[body_start:i]], start_line, level))
            return i + (3 if triple else 1), line
        i += 1


def _number_end(src, i, line, kind):
    # CPython's verify_end_of_number: a keyword that may follow a number ends it, else no letter may
    c = src[i:i + 1]
    if not c:
        return
    for kw in ("and", "else", "for", "if", "in", "is", "not", "or"):
        if src.startswith(kw, i):
            return
    if ord(c) < 128 and _ident_char(c):
        raise _syntax_error("invalid %s literal" % kind, line)


def _decimal_tail(src, i, line):
    n = len(src)
    while True:
        while i < n and src[i] in _DIGITS:
            i += 1
        if i >= n or src[i] != "_":
            return i
        i += 1
        if i >= n or src[i] not in _DIGITS:
            raise _syntax_error("invalid decimal literal", line)


def _read_number(src, i, line):
    n = len(src)
    c = src[i]
    if c == "0" and i + 1 < n and src[i + 1] in "xXoObB":
        kind = {"x": "hexadecimal", "o": "octal", "b": "binary"}[src[i + 1].lower()]
        digits = {"x": _HEX, "o": "01234567", "b": "01"}[src[i + 1].lower()]
        i += 2
        while True:
            if i < n and src[i] == "_":
                i += 1
            if i >= n or src[i] not in digits:
                if kind != "hexadecimal" and i < n and src[i] in _DIGITS:
                    raise _syntax_error("invalid digit '%s' in %s literal" % (src[i], kind), line)
                raise _syntax_error("invalid %s literal" % kind, line)
            while i < n and src[i] in digits:
                i += 1
            if i >= n or src[i] != "_":
                break
        if kind != "hexadecimal" and i < n and src[i] in _DIGITS:
            raise _syntax_error("invalid digit '%s' in %s literal" % (src[i], kind), line)
        _number_end(src, i, line, kind)
        return i
    if c == "0":
        i += 1
        while True:
            if i < n and src[i] == "_":
                i += 1
                if i >= n or src[i] not in _DIGITS:
                    raise _syntax_error("invalid decimal literal", line)
            if i >= n or src[i] != "0":
                break
            i += 1
        nonzero = False
        if i < n and src[i] in _DIGITS:
            nonzero = True
            i = _decimal_tail(src, i, line)
        c = src[i:i + 1]
        if c == ".":
            return _fraction(src, i + 1, line)
        if c and c in "eE":
            return _exponent(src, i, line)
        if c and c in "jJ":
            _number_end(src, i + 1, line, "imaginary")
            return i + 1
        if nonzero:
            raise _syntax_error("leading zeros in decimal integer literals are not permitted; "
                                "use an 0o prefix for octal integers", line)
        _number_end(src, i, line, "decimal")
        return i
    if c == ".":
        return _fraction(src, i + 1, line)
    i = _decimal_tail(src, i, line)
    if src[i:i + 1] == ".":
        return _fraction(src, i + 1, line)
    return _exponent(src, i, line)


def _fraction(src, i, line):
    if src[i:i + 1] and src[i] in _DIGITS:
        i = _decimal_tail(src, i, line)
    return _exponent(src, i, line)


def _exponent(src, i, line):
    n = len(src)
    c = src[i:i + 1]
    if c and c in "eE":
        j = i + 1
        if j < n and src[j] in "+-":
            j += 1
            if j >= n or src[j] not in _DIGITS:
                raise _syntax_error("invalid decimal literal", line)
        elif j >= n or src[j] not in _DIGITS:
            _number_end(src, i, line, "decimal")
            return i
        i = _decimal_tail(src, j, line)
    c = src[i:i + 1]
    if c and c in "jJ":
        _number_end(src, i + 1, line, "imaginary")
        return i + 1
    _number_end(src, i, line, "decimal")
    return i


def _number_value(text):
    t = text.replace("_", "").lower()
    if t.endswith("j"):
        return None
    if t.startswith("0x") or t.startswith("0o") or t.startswith("0b"):
        base = {"x": 16, "o": 8, "b": 2}[t[1]]
        v = 0
        for ch in t[2:]:
            v = v * base + int(ch, 16)
        return v
    if "." in t or "e" in t:
        return float(t)
    return int(t)


def _unicode_error(body, start, end, msg, line):
    # positions as CPython counts them: each non-ASCII character is written as a 10-byte \U escape
    def pos(k):
        p = 0
        j = 0
        while j < k:
            if body[j] == "\\" and j + 1 < len(body):
                p += 6 if ord(body[j + 1]) >= 128 else 1
                j += 1
            p += 10 if ord(body[j]) >= 128 else 1
            j += 1
        return p
    return _syntax_error("(unicode error) 'unicodeescape' codec can't decode bytes in position %d-%d: %s"
                         % (pos(start), pos(end) - 1, msg), line)


def _decode(body, line):
    out = []
    n = len(body)
    i = 0
    while i < n:
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        if i + 1 >= n:
            out.append("\\")
            break
        e = body[i + 1]
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
            i += 2
        elif e in "01234567":
            j = i + 1
            v = 0
            while j < n and j < i + 4 and body[j] in "01234567":
                v = v * 8 + ord(body[j]) - 48
                j += 1
            out.append(chr(v))
            i = j
        elif e in "xuU":
            count = {"x": 2, "u": 4, "U": 8}[e]
            name = {"x": "truncated \\xXX escape", "u": "truncated \\uXXXX escape",
                    "U": "truncated \\UXXXXXXXX escape"}[e]
            j = i + 2
            v = 0
            while j < i + 2 + count:
                if j >= n or body[j] not in _HEX:
                    raise _unicode_error(body, i, j, name, line)
                v = v * 16 + _HEX.index(body[j].lower())
                j += 1
            if v > 0x10FFFF:
                raise _unicode_error(body, i, j, "illegal Unicode character", line)
            out.append(chr(v))
            i = j
        elif e == "N":
            j = i + 2
            if j < n and body[j] == "{":
                k = body.find("}", j + 1)
                if k < 0:
                    raise _unicode_error(body, i, n, "malformed \\N character escape", line)
                if k > j + 1:
                    raise _unicode_error(body, i, k + 1, "\\N{...} escapes are not supported in model scripts",
                                         line)
                raise _unicode_error(body, i, k, "malformed \\N character escape", line)
            raise _unicode_error(body, i, min(j, n), "malformed \\N character escape", line)
        else:
            out.append("\\")
            out.append(e)
            i += 2
    return "".join(out)


def _check_fstring(body, line):
    # only the brace structure is checked: an f-string is never a literal
    n = len(body)

    def err(msg, at):
        return _syntax_error("f-string: " + msg, line + body[:at].count("\n"))
    i = 0
    while i < n:
        c = body[i]
        if c == "}":
            if body[i + 1:i + 2] != "}":
                raise err("single '}' is not allowed", i)
            i += 2
            continue
        if c != "{":
            i += 1
            continue
        if body[i + 1:i + 2] == "{":
            i += 2
            continue
        j = i + 1
        depth = 0
        quote = None
        while j < n:
            ch = body[j]
            if quote:
                if ch == quote:
                    quote = None
            elif ch in "'\"":
                quote = ch
            elif ch in "([{":
                depth += 1
            elif ch in ")]}" and depth > 0:
                depth -= 1
            elif depth == 0 and (ch == "}" or ch == ":" or (ch == "!" and body[j + 1:j + 2] != "=")):
                break
            j += 1
        if j >= n:
            raise err("expecting '}'", n)
        if not body[i + 1:j].strip():
            raise err("empty expression not allowed", j)
        if body[j] == "!":
            j += 2
        if j < n and body[j] == ":":
            depth = 0
            while j < n and (body[j] != "}" or depth > 0):
                if body[j] == "{":
                    depth += 1
                elif body[j] == "}":
                    depth -= 1
                j += 1
        if j >= n or body[j] != "}":
            raise err("expecting '}'", n)
        i = j + 1


def _check_bytes(body, raw, line):
    for ch in body:
        if ord(ch) >= 128:
            raise _syntax_error("bytes can only contain ASCII literal characters", line)
    if raw:
        return
    i = body.find("\\")
    while 0 <= i < len(body) - 1:
        if body[i + 1] == "x":
            h = body[i + 2:i + 4]
            if len(h) < 2 or h[0] not in _HEX or h[1] not in _HEX:
                raise _syntax_error("(value error) invalid \\x escape at position %d" % i, line)
        i = body.find("\\", i + 2)


class _Parser:
    def __init__(self, toks, parens):
        self.toks = toks
        self.parens = parens
        self.pos = 0
        self.far = 0

    # --- tokens -------------------------------------------------------------------------------------

    def peek(self, k=0):
        j = self.pos + k
        if j >= len(self.toks):
            j = len(self.toks) - 1
        if j > self.far:
            self.far = j
        t = self.toks[j]
        if t.type == "END" and self.parens:
            o = self.parens[-1]
            raise _syntax_error("'%s' was never closed" % o[0], o[1])
        return t

    def at(self, value, k=0):
        t = self.peek(k)
        return t.value == value and (t.type == "OP" or t.type == "NAME")

    def accept(self, value):
        if self.at(value):
            self.pos += 1
            return True
        return False

    def expect(self, value):
        if not self.accept(value):
            raise _Stop()

    def fail(self):
        raise _Stop()

    def starts_expr(self, k=0):
        t = self.peek(k)
        if t.type in ("NUMBER", "STRING"):
            return True
        if t.type == "NAME":
            return t.value not in _KEYWORDS or t.value in ("True", "False", "None", "not", "lambda", "await")
        return t.type == "OP" and t.value in ("(", "[", "{", "-", "+", "~", "...")

    def node(self, kind, line, a=None, b=None, c=None):
        return _Node(kind, line, a, b, c)

    # --- expressions --------------------------------------------------------------------------------

    def expressions(self):
        first = self.peek()
        e = self.expression()
        if not self.at(","):
            return e
        elts = [e]
        while self.accept(","):
            if not self.starts_expr():
                break
            elts.append(self.expression())
        return self.node("Tuple", first.line, elts)

    def expression(self, hints=True):
        t = self.peek()
        if t.type == "NAME" and t.value == "lambda":
            return self.lambdef()
        start = self.pos
        a = None
        if t.type in ("NUMBER", "STRING") or (t.type == "OP" and t.value in _OPEN):
            a = self.atom()
            n = self.peek()
            if n.type in ("NEWLINE", "END") or (n.type == "OP" and n.value in _ENDERS):
                return a
            a = self.binary(1, self.primary(a))
        else:
            a = self.binary(1)
        if self.at("if"):
            self.pos += 1
            b = self.binary(1)
            if not self.at("else"):
                if not self.at(":"):
                    raise _syntax_error("expected 'else' after 'if' expression", t.line)
                self.fail()
            self.pos += 1
            c = self.expression(hints)
            return self.node("IfExp", a.lineno, b, a, c)
        if hints and self.starts_expr():
            self.hint(start, a, t)
        return a

    def hint(self, start, a, first):
        # CPython's second-pass rules for two expressions in a row: print without parentheses, a
        # missing comma inside brackets
        legacy = a.kind == "Name" and self.pos == start + 1 and a.a in ("print", "exec")
        if not legacy:
            if first.type == "NAME" and (first.value in ("match", "case", "_") or
                                         self.toks[start + 1].type == "STRING"):
                return
        save = self.pos
        far = self.far
        try:
            if legacy and self.at("*"):
                self.pos += 1
                self.binary(5)
            else:
                self.expression(False)
        except _Stop:
            self.pos = save
            ok = False
            b = self.peek()
            if b.type != "OP" or b.value in _OPEN or b.value == "...":
                if b.type != "NAME" or b.value not in _KEYWORDS or b.value in ("True", "False", "None"):
                    try:
                        self.atom()
                        ok = True
                    except _Stop:
                        pass
            if not ok:
                self.pos = save
                self.far = far
                return
        end_level = self.toks[self.pos - 1].level
        self.pos = save
        self.far = far
        if legacy:
            raise _syntax_error("Missing parentheses in call to '%s'. Did you mean %s(...)?" % (a.a, a.a),
                                first.line)
        if end_level > 0:
            raise _syntax_error("invalid syntax. Perhaps you forgot a comma?", first.line)

    def named_expression(self):
        t = self.peek()
        if t.type == "NAME" and t.value not in _KEYWORDS and self.at(":=", 1):
            self.pos += 2
            v = self.expression()
            return self.node("NamedExpr", t.line, self.node("Name", t.line, t.value), v)
        start = self.pos
        e = self.expression()
        self.named_checks(start, t, e)
        return e

    def named_checks(self, start, t, e):
        # CPython's invalid_named_expression messages, for a named expression followed by := or =
        if self.at(":="):
            raise _syntax_error("cannot use assignment expressions with %s" % self.expr_name(e), e.lineno)
        if self.at("=") and e.kind not in ("Compare", "BoolOp", "IfExp", "Lambda", "NamedExpr") and \
                not (e.kind == "UnaryOp" and e.a == "Not"):
            save = self.pos
            far = self.far
            ok = False
            self.pos += 1
            try:
                self.binary(5)
                ok = not (self.at("=") or self.at(":="))
            except _Stop:
                pass
            self.pos = save
            self.far = far
            if ok:
                if e.kind == "Name" and self.pos == start + 1:
                    raise _syntax_error("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", t.line)
                if not (t.type == "OP" and t.value in "([") and \
                        not (t.type == "NAME" and t.value in ("True", "False", "None")):
                    raise _syntax_error("cannot assign to %s here. Maybe you meant '==' instead of '='?"
                                        % self.expr_name(e), e.lineno)

    def expr_name(self, e):
        if e.kind == "Constant":
            if e.a is True or e.a is False or e.a is None:
                return str(e.a)
            if e.a is ...:
                return "ellipsis"
            return "literal"
        return _EXPR_NAMES.get(e.kind, "expression")

    def star_named(self):
        t = self.peek()
        if self.accept("*"):
            return self.node("Starred", t.line, self.binary(5))
        return self.named_expression()

    def lambdef(self):
        t = self.peek()
        self.pos += 1
        while not self.at(":"):
            s = self.peek()
            if s.type == "OP" and s.value == "*" and (self.at(":", 1) or (self.at(",", 1) and
                                                                         (self.at(":", 2) or self.at("**", 2)))):
                raise _syntax_error("named arguments must follow bare *", s.line)
            if self.accept("**") or self.accept("*"):
                if self.peek().type == "NAME" and self.peek().value not in _KEYWORDS:
                    self.pos += 1
            elif self.accept("/"):
                pass
            else:
                p = self.peek()
                if p.type != "NAME" or p.value in _KEYWORDS:
                    self.fail()
                self.pos += 1
                if self.accept("="):
                    self.expression()
            if not self.accept(","):
                break
        self.expect(":")
        self.expression()
        return self.node("Lambda", t.line)

    def binary(self, minp, left=None):
        # precedence climbing: 1 or, 2 and, 3 not, 4 comparisons, 5 | ... 10 * / // % @, 11 unary, 12 **
        t = self.peek()
        if left is not None:
            if self.accept("**"):
                left = self.node("BinOp", left.lineno, "Pow", left, self.binary(11))
        elif t.type == "NAME" and t.value == "not":
            if minp > 3:
                self.fail()
            self.pos += 1
            left = self.node("UnaryOp", t.line, "Not", self.binary(3))
        elif t.type == "OP" and t.value in ("+", "-", "~"):
            self.pos += 1
            op = {"+": "UAdd", "-": "USub", "~": "Invert"}[t.value]
            left = self.node("UnaryOp", t.line, op, self.binary(11))
        else:
            left = self.power()
        while True:
            t = self.peek()
            if t.type == "OP" and t.value in _BINOPS:
                p, op = _BINOPS[t.value]
                if p < minp:
                    return left
                self.pos += 1
                left = self.node("BinOp", left.lineno, op, left, self.binary(p + 1))
            elif t.type == "NAME" and t.value in ("or", "and"):
                p = 1 if t.value == "or" else 2
                if p < minp:
                    return left
                values = [left]
                while self.accept(t.value):
                    values.append(self.binary(p + 1))
                left = self.node("BoolOp", left.lineno, t.value, values)
            elif self.compare_op() and minp <= 4:
                ops = []
                while True:
                    n = self.compare_op()
                    if not n:
                        break
                    self.pos += n
                    ops.append(self.binary(5))
                left = self.node("Compare", left.lineno, ops)
            else:
                return left

    def compare_op(self):
        t = self.peek()
        if t.type == "OP" and t.value in _COMPARE:
            return 1
        if t.type == "NAME":
            if t.value == "in":
                return 1
            if t.value == "is":
                return 2 if self.at("not", 1) else 1
            if t.value == "not" and self.at("in", 1):
                return 2
        return 0

    def power(self):
        t = self.peek()
        if t.type == "NAME" and t.value == "await":
            self.pos += 1
            e = self.node("Await", t.line, self.primary())
        else:
            e = self.primary()
        if self.accept("**"):
            e = self.node("BinOp", e.lineno, "Pow", e, self.binary(11))
        return e

    def primary(self, e=None):
        if e is None:
            e = self.atom()
        while True:
            t = self.peek()
            if t.type != "OP":
                return e
            if t.value == ".":
                self.pos += 1
                p = self.peek()
                if p.type != "NAME" or p.value in _KEYWORDS:
                    self.fail()
                self.pos += 1
                e = self.node("Attribute", e.lineno, e, p.value)
            elif t.value == "(":
                self.pos += 1
                args, kwargs = self.call_args()
                e = self.node("Call", e.lineno, e, args, kwargs)
            elif t.value == "[":
                self.pos += 1
                self.slices()
                e = self.node("Subscript", e.lineno, e)
            else:
                return e

    def call_args(self):
        args = []
        kwargs = []
        seen_kw = False
        seen_dstar = False
        while not self.accept(")"):
            t = self.peek()
            if self.accept("*"):
                if seen_dstar:
                    raise _syntax_error("iterable argument unpacking follows keyword argument unpacking", t.line)
                args.append(self.node("Starred", t.line, self.expression()))
            elif self.accept("**"):
                self.expression()
                kwargs.append(None)
                seen_dstar = True
            elif t.type == "NAME" and t.value not in _KEYWORDS and self.at("=", 1):
                self.pos += 2
                kwargs.append(self.expression())
                seen_kw = True
            else:
                if t.type == "NAME" and t.value not in _KEYWORDS and self.at(":=", 1):
                    e = self.named_expression()
                else:
                    e = self.expression()
                if self.at("for") or self.at("async"):
                    self.comprehension()
                    if args or kwargs or not self.at(")"):
                        raise _syntax_error("Generator expression must be parenthesized", e.lineno)
                    e = self.node("GeneratorExp", e.lineno)
                elif seen_kw or seen_dstar:
                    raise _syntax_error("positional argument follows keyword argument unpacking" if seen_dstar
                                        else "positional argument follows keyword argument", e.lineno)
                args.append(e)
            if not self.accept(","):
                self.expect(")")
                break
        return args, kwargs

    def slices(self):
        while True:
            if self.accept("*"):
                self.binary(5)
            else:
                if not self.at(":"):
                    self.named_expression()
                if self.accept(":"):
                    if not self.at(":") and not self.at(",") and not self.at("]"):
                        self.expression()
                    if self.accept(":"):
                        if not self.at(",") and not self.at("]"):
                            self.expression()
            if not self.accept(","):
                break
            if self.at("]"):
                break
        self.expect("]")

    def comprehension(self):
        while self.at("for") or self.at("async"):
            self.accept("async")
            self.expect("for")
            while True:
                self.accept("*")
                self.binary(5)
                if not self.accept(","):
                    break
                if self.at("in"):
                    break
            self.expect("in")
            self.binary(1)
            while self.accept("if"):
                self.binary(1)

    def atom(self):
        t = self.peek()
        if t.type == "NUMBER":
            self.pos += 1
            v = _number_value(t.value)
            return self.node("Constant", t.line, v, "imag" if v is None else None)
        if t.type == "STRING":
            return self.strings()
        if t.type == "NAME":
            if t.value in ("True", "False", "None"):
                self.pos += 1
                return self.node("Constant", t.line, {"True": True, "False": False, "None": None}[t.value])
            if t.value in _KEYWORDS:
                self.fail()
            self.pos += 1
            return self.node("Name", t.line, t.value)
        if t.type != "OP":
            self.fail()
        if t.value == "...":
            self.pos += 1
            return self.node("Constant", t.line, ...)
        if t.value == "(":
            self.pos += 1
            return self.paren(t)
        if t.value == "[":
            self.pos += 1
            return self.bracket(t)
        if t.value == "{":
            self.pos += 1
            return self.brace(t)
        self.fail()

    def strings(self):
        first = self.peek()
        parts = []
        kinds = []
        while self.peek().type == "STRING":
            t = self.peek()
            self.pos += 1
            prefix, body = t.value
            kinds.append("b" if "b" in prefix else "f" if "f" in prefix else "s")
            if (kinds[0] == "b") != (kinds[-1] == "b"):
                raise _syntax_error("cannot mix bytes and nonbytes literals", first.line)
            if "b" in prefix:
                _check_bytes(body, "r" in prefix, t.line)
            elif "f" in prefix:
                _check_fstring(body, t.line)
            else:
                parts.append(body if "r" in prefix else _decode(body, t.line))
        if "f" in kinds:
            return self.node("JoinedStr", first.line)
        if "b" in kinds:
            return self.node("Constant", first.line, None, "bytes")
        return self.node("Constant", first.line, "".join(parts))

    def paren(self, t):
        if self.accept(")"):
            return self.node("Tuple", t.line, [])
        p = self.peek()
        if p.type == "NAME" and p.value == "yield":
            self.pos += 1
            if self.accept("from"):
                self.expression()
            elif not self.at(")"):
                if self.starts_expr() or self.at("*"):
                    self.star_named()
                    while self.accept(","):
                        if self.at(")"):
                            break
                        self.star_named()
            self.expect(")")
            return self.node("Yield", p.line)
        if self.at("**"):
            self.pos += 1
            self.expression()
            if self.at(")"):
                raise _syntax_error("cannot use double starred expression here", p.line)
            self.fail()
        e = self.named_expression() if not self.at("*") else self.star_named()
        if e.kind != "Starred":
            if self.at("for") or self.at("async"):
                self.comprehension()
                self.expect(")")
                return self.node("GeneratorExp", t.line)
            if self.accept(")"):
                return e
        elif self.at(")"):
            raise _syntax_error("cannot use starred expression here", e.lineno)
        if not self.at(","):
            self.fail()
        elts = [e]
        while self.accept(","):
            if self.at(")"):
                break
            elts.append(self.star_named())
        self.expect(")")
        return self.node("Tuple", t.line, elts)

    def bracket(self, t):
        if self.accept("]"):
            return self.node("List", t.line, [])
        e = self.named_expression() if not self.at("*") else self.star_named()
        if e.kind != "Starred" and (self.at("for") or self.at("async")):
            self.comprehension()
            self.expect("]")
            return self.node("ListComp", t.line)
        elts = [e]
        while self.accept(","):
            if self.at("]"):
                break
            elts.append(self.star_named())
        self.expect("]")
        return self.node("List", t.line, elts)

    def brace(self, t):
        if self.accept("}"):
            return self.node("Dict", t.line, [], [])
        if self.at("**"):
            return self.dict_rest(t, [], [])
        p = self.peek()
        if self.at("*") or (p.type == "NAME" and p.value not in _KEYWORDS and self.at(":=", 1)):
            e = self.star_named()
        else:
            start = self.pos
            e = self.expression()
            if self.accept(":"):
                v = self.dict_value()
                if self.at("for") or self.at("async"):
                    self.comprehension()
                    self.expect("}")
                    return self.node("DictComp", t.line)
                return self.dict_rest(t, [e], [v])
            self.named_checks(start, p, e)
        if e.kind != "Starred" and (self.at("for") or self.at("async")):
            self.comprehension()
            self.expect("}")
            return self.node("SetComp", t.line)
        elts = [e]
        while self.accept(","):
            if self.at("}"):
                break
            elts.append(self.star_named())
        self.expect("}")
        return self.node("Set", t.line, elts)

    def dict_value(self):
        s = self.peek()
        if s.type == "OP" and s.value == "*":
            raise _syntax_error("cannot use a starred expression in a dictionary value", s.line)
        if s.type == "OP" and s.value in ("}", ","):
            raise _syntax_error("expression expected after dictionary key and ':'", self.toks[self.pos - 1].line)
        return self.expression()

    def dict_rest(self, t, keys, values):
        first = not keys
        while True:
            if not first:
                if not self.accept(","):
                    break
                if self.at("}"):
                    break
            first = False
            if self.accept("**"):
                keys.append(None)
                values.append(self.binary(5))
                continue
            k = self.expression()
            if not self.accept(":"):
                raise _syntax_error("':' expected after dictionary key", k.lineno)
            values.append(self.dict_value())
            keys.append(k)
        self.expect("}")
        return self.node("Dict", t.line, keys, values)


def _parse(src):
    if "\x00" in src:
        raise ValueError("source code string cannot contain null bytes")
    src = src.replace("\r\n", "\n").replace("\r", "\n")
    toks, parens = _tokenize(src)
    p = _Parser(toks, parens)
    try:
        e = p.expressions()
        while p.peek().type == "NEWLINE":
            p.pos += 1
        if p.peek().type != "END":
            p.fail()
        return e
    except _Stop:
        t = toks[p.far]
        if t.type == "INDENT":
            raise _syntax_error("unexpected indent", t.line, IndentationError)
        if t.type == "DEDENT":
            raise _syntax_error("unexpected unindent", t.line, IndentationError)
        if parens and parens[-1][1] < t.line:
            o = parens[-1]
            raise _syntax_error("'%s' was never closed" % o[0], o[1])
        raise _syntax_error("invalid syntax", t.line)


def _malformed(node):
    where = " on line %d" % node.lineno if isinstance(node, _Node) else ""
    raise ValueError("malformed node or string" + where + ": %r" % (node,))


def _plain_number(node):
    # a Constant holding an int, a float or an imaginary literal (bool is not a number here)
    if isinstance(node, _Node) and node.kind == "Constant" and node.b != "bytes":
        if node.b == "imag" or type(node.a) in (int, float):
            return node
    _malformed(node)


def _constant_value(node):
    if node.b == "imag":
        raise ValueError("complex numbers are not supported: the interpreter has no complex type")
    if node.b == "bytes":
        raise ValueError("bytes literals are not supported: the interpreter has no bytes type")
    return node.a


def _is_sign(node):
    return isinstance(node, _Node) and node.kind == "UnaryOp" and node.a in ("UAdd", "USub")


def _number(node):
    # a number with at most one sign in front of it
    if _is_sign(node):
        magnitude = _constant_value(_plain_number(node.b))
        return -magnitude if node.a == "USub" else +magnitude
    return _constant_value(_plain_number(node))


def _literal(node):
    if not isinstance(node, _Node):
        _malformed(node)
    kind = node.kind
    if kind == "Constant":
        return _constant_value(node)
    if kind == "List" or kind == "Tuple":
        items = []
        for e in node.a:
            items.append(_literal(e))
        return items if kind == "List" else tuple(items)
    if kind == "Set":
        members = set()
        for e in node.a:
            members.add(_literal(e))
        return members
    if kind == "Dict":
        mapping = {}
        for k in range(len(node.a)):
            key = _literal(node.a[k])
            mapping[key] = _literal(node.b[k])
        return mapping
    if kind == "Call" and node.a.kind == "Name" and node.a.a == "set" and not node.b and not node.c:
        return set()
    if kind == "BinOp" and node.a in ("Add", "Sub"):
        # real +/- imaginary is the one sum a literal may hold; with no complex type it is refused
        left = node.b
        _plain_number(left.b if _is_sign(left) else left)
        right = _plain_number(node.c)
        real_left = (left.b.b if _is_sign(left) else left.b) != "imag"
        if real_left and right.b == "imag":
            raise ValueError("complex numbers are not supported: the interpreter has no complex type")
    return _number(node)


def literal_eval(node_or_string):
    if isinstance(node_or_string, str):
        node_or_string = _parse(node_or_string.lstrip(" \t"))
    return _literal(node_or_string)
