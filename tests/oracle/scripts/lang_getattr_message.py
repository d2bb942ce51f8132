# covers: an AttributeError raised by a script class's __getattr__ keeps its message (attribute
# access and getattr without a default), while getattr with a default and hasattr still read it
# as "absent"; __getattr__ runs once per lookup
class Lazy:
    calls = 0

    def __getattr__(self, name):
        Lazy.calls += 1
        if name.startswith("x"):
            return name.upper()
        raise AttributeError("Lazy has no %r, only x-names" % name)


lz = Lazy()
print(lz.xyz, getattr(lz, "nope", "default"), hasattr(lz, "nope"), hasattr(lz, "xa"))
for fn in [lambda: lz.nope, lambda: getattr(lz, "other")]:
    try:
        fn()
    except AttributeError as e:
        print("AttributeError:", e)


class Plain:
    def __getattr__(self, name):
        raise AttributeError()


try:
    Plain().thing
except AttributeError as e:
    print("AttributeError:", repr(e), e.args)
print(Lazy.calls)


class Strict:
    def __init__(self):
        self.present = 1

    def __getattr__(self, name):
        raise AttributeError(f"{type(self).__name__!r} config has no field {name!r}")


try:
    print(Strict().present, Strict().absent)
except AttributeError as e:
    print("AttributeError:", e, e.args)
