# string.Template: $name, ${name}, $$, substitute with a mapping and/or keywords (keywords win),
# safe_substitute leaving what it cannot fill, get_identifiers / is_valid, a subclass with its
# own delimiter, and the KeyError / ValueError (line and column) / TypeError messages.
from string import Template

t = Template("$who likes $what, ${who}'s $$5 ${what}cake")
print(t.template)
print(t.substitute(who="tim", what="kung pao"))
print(t.substitute({"who": "ann", "what": "tea"}))
print(t.substitute({"who": "ann", "what": "tea"}, what="coffee"))
print(t.safe_substitute(who="bo"))
print(t.get_identifiers(), t.is_valid())
print(Template("$a$b ${a}${b} $a_b $_x $X1").safe_substitute(a=1, b=2.5, _x=None, X1=[1]))
print(Template("epoch $epoch: loss=${loss}").substitute(epoch=3, loss=0.125))
print(Template("$name.$ext / $name-$ext / $name$$").substitute(name="model", ext="pt"))
print(Template("no placeholders at all").substitute(), Template("").substitute())

for text in ["$$ and $", "a\nb $1", "x\n\n$", "${bad name}", "${", "$}", "${ab", "ok $", "$%", "$\u00e9",
             "line1\nline2 ${x", "\n$9", "ab\r\n$1", "a\rb\r$1", "${}", "$ {x}"]:
    tt = Template(text)
    try:
        print(repr(text), repr(tt.substitute(x=1)))
    except ValueError as e:
        print(repr(text), "ValueError", e)
    print("   safe:", repr(tt.safe_substitute(x=1)), tt.get_identifiers(), tt.is_valid())

for call in [lambda: Template("$a $b").substitute(a=1), lambda: Template("${missing}").substitute({}),
             lambda: Template("$a").substitute({}, {}), lambda: Template("$a").safe_substitute({}, {}, {}),
             lambda: Template("$a").substitute(5)]:
    try:
        print(call())
    except (KeyError, TypeError) as e:
        print(type(e).__name__, e)


class Percent(Template):
    delimiter = "%"


p = Percent("%who owes %%%amount (not $dollars) %{who}")
print(p.substitute(who="al", amount=10), p.get_identifiers())


class Hash(Template):
    delimiter = "##"


h = Hash("## ##x ###y ####z")
print(repr(h.safe_substitute(x="X", y="Y", z="Z")), h.is_valid())
try:
    h.substitute(x="X", y="Y", z="Z")
except ValueError as e:
    print("ValueError", e)


class Defaults:
    def __init__(self, **known):
        self.known = known

    def __getitem__(self, key):
        if key == "strict":
            raise KeyError(key)
        return self.known.get(key, "<%s?>" % key)


print(Template("$a and $b").substitute(Defaults(a="A")))
print(Template("$a and $b, $strict").safe_substitute(Defaults(a="A")))
print(Template("$a and $b").substitute(Defaults(a="A"), b="kw"))
