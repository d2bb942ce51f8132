# ast.literal_eval (core/script/stdlib/ast.py): literals of every kind, malformed input as ValueError
# with CPython's message, unparsable text as SyntaxError, nesting, minGPT-style config overrides.
from ast import literal_eval


def show(v):
    # sets print sorted so that CPython's hash order does not matter
    if isinstance(v, set):
        return "set(" + repr(sorted(v, key=repr)) + ")" if v else "set()"
    if isinstance(v, list):
        return "[" + ", ".join(show(x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(show(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, dict):
        return "{" + ", ".join(show(k) + ": " + show(x) for k, x in v.items()) + "}"
    return repr(v) + ":" + type(v).__name__


def outside(c):
    # complex numbers, bytes and \N{...} escapes are what Fuselab's interpreter lacks (ValueError /
    # SyntaxError there, values in CPython): left out
    if "\\N" in c:
        return True
    for k in range(len(c)):
        ch = c[k]
        if ch in "jJ" and k > 0 and (c[k - 1] in "0123456789._"):
            return True
        if ch in "bB" and k + 1 < len(c) and c[k + 1] in "'\"rR" and (k == 0 or not (c[k - 1].isalnum() or c[k - 1] == "_")):
            return True
    return False


def run(cases, full=True):
    for c in cases:
        if outside(c):
            continue
        try:
            print(repr(c), "->", show(literal_eval(c)))
        except SyntaxError as e:
            print(repr(c), "!!", type(e).__name__, str(e) if full else "")
        except ValueError as e:
            m = str(e)
            print(repr(c), "!!", "ValueError", m.split(": <ast.")[0] if m.startswith("malformed") else m)
        except Exception as e:
            print(repr(c), "!!", type(e).__name__, str(e))


ok = [
    "0", "7", "-7", "+7", "00", "0_0", "1_000_000", "123456789012345678901234567890", "-123456789012345678901234567890",
    "0x1F", "0XfF", "0x_dead_BEEF", "0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "0o17", "0O1_7", "0b101", "0B1_1", "-0x10",
    "0b" + "1" * 70, "0o" + "7" * 30,
    "1.5", "-1.5", "1.", ".5", "0.", "1e5", "1E-5", "1e+05", "2.5e-3", "1_0.1_0e1_0", "0e0", "00.5", "0017.5",
    "017e1", "09.5", "1e400", "-1e400", "1e-400", "4.9e-324", "1.7976931348623157e308", "0.1", "-0.0", "+0.0",
    "3.141592653589793", "123456789.123456789", "1e16", "1e22", "12345678901234567890.0",
    "True", "False", "None", "...", "(None,)",
    "'a'", '"a"', "'''a'''", '"""a"""', "''", '""', "''''''", "'it\\'s'", '"say \\"hi\\""', "'a\\nb\\tc\\\\d'",
    "'\\x41\\x7a'", "'\\u00e9\\u20ac'", "'\\U0001F600'", "'\\101\\0\\7\\1234'", "'\\400\\777'",
    "'\\a\\b\\f\\v\\r'", "'\\q\\d\\8\\9'", "'a\\\nb'", "r'a\\nb'", "R'\\x'", "r'\\''", "r\"\\\"\"", "u'x'",
    "U'x'", "'a' 'b'", "'a' \"b\" '''c'''", "('a'\n 'b')", "'''a\nb'''", '"""it\'s "quoted" """', "'é'", "'日本'",
    "'\\u0041' r'\\u0041'", "'''a'''" + "'b'", "'#notcomment'",
    "()", "(1,)", "(1, 2)", "(1, 2,)", "1, 2", "1,", "1 ,2", "((1,),)", "(((1)))", "[]", "[1]", "[1, 2, 3,]",
    "[[], [[]], ()]", "{}", "{1: 2}", "{'a': 1, 'b': [1, 2], 'c': {'d': None}}", "{1: 1, 1: 2}", "{1:2,}",
    "{1}", "{1, 2, 3}", "{1,}", "{(1, 2), 'a'}", "{1, 1.0, True}", "set()", "[set(), {1}]", "{'k': set()}",
    "[1,\n 2,\n 3]", "{\n 'a' : 1 ,\n # comment\n 'b' : 2\n}", "(\n)", "[\n1\n,\n]", "  1", "\t1", "  \t 1",
    "1\t", "1 ", "1\n", "1\n\n", "\n1", "#c\n1", "1 #c", "(1 #c\n, 2)", "\\\n1", "1 \\\n ", "\x0c1", " \x0c1",
    "-(1)", "-(-1.5)"[1:], "- 1", "(-\n1)", "-0", "1 \r\n", "[1,\r\n2]",
    "{'lr': 3e-4, 'betas': (0.9, 0.95), 'name': 'gpt2', 'layers': [12, 24]}",
    "[1, 'a', 2.5, None, True, (3,), {4: 5}]",
]
bad_value = [
    "x", "a.b", "f()", "f(x)", "set(1)", "set([1])", "frozenset()", "dict()", "print(1)", "Ellipsis", "True()",
    "None.x", "1 + 2", "1 - 1", "1 * 2", "2 ** 3", "-x", "+x", "not 1", "~1", "+-1", "--1", "-(-1)", "-'a'",
    "-True", "'a' + 'b'", "1 + x", "x + 1", "[1, x]", "(1,\n 2,\n x)", "{x: 1}", "{1: x}", "{1: x, y: 2}",
    "{**a}", "{1: 2, **a}", "[*a]", "(*a,)", "{*a}", "1 < 2", "1 == 1", "a if b else c", "lambda: 1",
    "lambda x, *a, k=1, **kw: x", "[x for x in y]", "{k: v for k, v in y}", "{x for x in y}", "(x for x in y)",
    "f(x for x in y)", "x[1]", "x[1:2, ::3]", "(x := 1)", "[x := 1]", "a @ b", "(yield)", "await x",
    "f'a'", "'a' f'b'", "rf'{1}'", "1 if 2 else 3", "1 or 2", "1 and 2", "a is not b", "a not in b",
    "1 < 2 <= 3", "2 ** -1", "-2 ** 2", "()()", "[1][0]", "(1,) (2,)", "1 (2)", "1.0.real", "1 \\\n+ 2",
    "'a' * 3", "1 // 2", "1if 1else 2", "1and 2", "1in x", "(1+2)", "(1, 2) + (3,)", "[1] + [2]",
]
complexish = ["1j", "1.5j", "1e5j", "0j", "00j", "1_1j", "1+2j", "1-1j", "-1-2j", "+1+2j", "(1+2j)+3", "2j+1",
              "x+1j", "1+x", "[1j]", "-1j", "1J", "-1.5-0.5J", "1.j", ".5j"]
run(ok)
run(bad_value)
run(complexish)
for x in (5, 1.5, None, [1], (1,), {"a": 1}, True):
    try:
        literal_eval(x)
    except ValueError as e:
        print(repr(x), "!!", str(e))
try:
    literal_eval("{[1]: 2}")
except TypeError as e:
    print("TypeError", e)
try:
    literal_eval("{[1]}")
except TypeError as e:
    print("TypeError", e)
v = literal_eval("[" * 50 + "]" * 50)
print(len(repr(v)))
v = literal_eval("(" * 50 + "1" + ",)" * 50)
print(len(repr(v)))
print(literal_eval(repr(list(range(100)))) == list(range(100)))
for depth in (100, 150, 199, 200):
    for o, c in (("[", "]"), ("(", ",)"), ("{", "}")):
        try:
            v = literal_eval(o * depth + "1" + c * depth)
            print(depth, o, "ok")
        except RecursionError:
            print(depth, o, "RecursionError")
        except Exception as e:
            print(depth, o, type(e).__name__, e)
d = {"a": [1, 2.5, "x\n'\"", None], "b": (True, False, ()), "c": {"n": -3, "e": 1e-7}}
print(literal_eval(repr(d)) == d)
print(literal_eval(repr("\x00\x1f\x7f\u0080\u2028\ud7ff\U0010ffff\\'\"")) == "\x00\x1f\x7f\u0080\u2028\ud7ff\U0010ffff\\'\"")

import ast
from ast import literal_eval

print(ast.literal_eval("[1, 2]"))
print(hasattr(ast, "literal_eval"))
for src in ["x", "[1,\n 2,\n x]", "{\n'a': 1,\n'b': y}", "(1,\n2,\n\n  f(3))", "{1: 2,\n 3: 4,\n **z}", "[\n-\nx]",
            "1 + \\\n 2", "[1, 2,\n 3 +\n 4]", "'a'\\\n + x"]:
    try:
        literal_eval(src)
    except ValueError as e:
        m = str(e)
        print(repr(src), m[:m.index(": ")] if ": " in m else m, "<ast." in m)
# minGPT-style config overrides: a value that is not a literal stays a string
for v in ["3e-4", "0.1", "True", "None", "gpt-mini", "'gpt2'", "[1,2]", "1e-3", "512", "-1", "(0.9, 0.95)"]:
    try:
        r = literal_eval(v)
    except ValueError:
        r = v
    print(repr(v), repr(r), type(r).__name__)
try:
    literal_eval("gpt mini")
except SyntaxError as e:
    print("SyntaxError", e)
# str.count with start and end (character offsets, clamped as slices are)
doc = "a\nb\nc\nd\n"
print(doc.count("\n", 0, 3), doc.count("\n", 2), doc.count("\n", -3), doc.count("", 1, 4), "ééé".count("é", 1), "abab".count("ab", 1, 4))
