# string.Formatter: format / vformat, parse (literal text, field name, spec, conversion), fields
# with attributes and indexes, automatic numbering, nested specs, conversions, a subclass that
# overrides get_value / format_field / convert_field, and str.format's error messages.
import string

f = string.Formatter()
print(f.format("{} + {} = {}", 1, 2, 3), f.format("{0}{1}{0}", "ab", "-"), f.format("{x:>6}|{y!r}|{z:.3f}", x=3, y="s", z=3.14159))
print(f.vformat("{a[0]}-{b.__name__}-{c[key]}", (), {"a": [9, 8], "b": len, "c": {"key": "v"}}))
print(f.format("{:{}}|{:{}.{}f}", "x", 6, 2.71828, 9, 2), f.format("{0:^{1}}|{2:{1}.{3}}", "mid", 7, 2.5, 2))
print(f.format("{0!s:>4}|{0!r}|{0!a}|{0}", "ab"), f.format("{:%}", 0.5), f.format("{:,}", 1234567), f.format("{:08.3f}", -3.5))
print(f.format("{{literal}} {0} {{", "x"), f.format(""), f.format("plain"))
print(f.format("{format_string}|{self}", format_string="fs", self="me"))
try:
    f.format()
except TypeError as e:
    print("TypeError", e)
for text in ["a{0}b{{c}}{x!r:>3}d{}{:{w}}e", "", "{{", "}}x", "{a.b[c]}", "{a[}]}", "{a:{b}}", "{a!r:{b}}",
             "{a:{{}}}", "{a!:}", "{a!}}", "{!r}", "{:}", "{a[b]]}", "{0:{1:{2}}}", "{a b}", "{{}}"]:
    print(repr(text), list(f.parse(text)))
for bad in ["{", "}", "{0", "a}b", "{!}", "{0!}", "{0!xx}", "{0!x}", "{:{:{}}}", "{0[}", "{0]}", "{} {0}",
            "{0} {}", "{a.}", "{[}", "{a{b}", "{ab!", "{5}", "{0.nope}", "{0[5]}", "{x[0]x}", "{x..y}", "{x[]}"]:
    try:
        print(repr(bad), repr(f.format(bad, "p", [1], x={})))
    except (ValueError, KeyError, IndexError, AttributeError) as e:
        print(repr(bad), type(e).__name__, e)


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


print(f.format("({p.x}, {p.y}) and {0.x}", Point(5, 6), p=Point(1, 2)))


class Lenient(string.Formatter):
    def get_value(self, key, args, kwargs):
        if isinstance(key, int):
            return args[key] if key < len(args) else "<%d>" % key
        return kwargs.get(key, "<" + key + ">")


lf = Lenient()
print(lf.format("{0} {1} {2} {name} {other}", "a", name="N"))


class Upper(string.Formatter):
    def format_field(self, value, format_spec):
        return super().format_field(value, format_spec).upper()

    def convert_field(self, value, conversion):
        if conversion == "u":
            return str(value).upper()
        return super().convert_field(value, conversion)


uf = Upper()
print(uf.format("{} {:>5} {!r} {name!u}", "abc", "de", "q", name="shout"))


class Tracking(string.Formatter):
    def check_unused_args(self, used_args, args, kwargs):
        unused = [k for k in kwargs if k not in used_args] + [i for i in range(len(args)) if i not in used_args]
        if unused:
            raise ValueError("unused: %r" % (unused,))


try:
    Tracking().format("{0} {a}", 1, 2, a=3, b=4)
except ValueError as e:
    print(e)
print(Tracking().format("{0}{1}{a}", 1, 2, a=3))
