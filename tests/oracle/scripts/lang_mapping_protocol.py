# covers: dict(obj), dict.update(obj), {**obj} and f(**obj) for a script class with keys() and
# __getitem__ (a mapping to CPython), the order keys() gives, and the errors of non-mappings
class Config:
    def __init__(self, **values):
        self._values = dict(values)
        self.lookups = []

    def keys(self):
        return sorted(self._values)

    def __getitem__(self, key):
        self.lookups.append(key)
        return self._values[key] * 10


cfg = Config(b=2, a=1, c=3)
print(dict(cfg), cfg.lookups)
d = {"z": 0, "a": -1}
d.update(cfg)
print(d)
d.update(cfg, extra=True)
print(d)
print({**cfg, "d": 4}, {"a": "first", **cfg})


def show(a, b, c, **rest):
    return (a, b, c, rest)


print(show(**cfg))


class Pairs:
    """keys() may return any iterable, even a generator; __getitem__ decides the values."""

    def keys(self):
        yield "x"
        yield ("t", 1)

    def __getitem__(self, k):
        return repr(k)


print(dict(Pairs()), dict(Pairs(), y=1))


class OnlyIter:
    def __iter__(self):
        return iter([("k", 1), ("j", 2)])


print(dict(OnlyIter()))


class BadMapping:
    def keys(self):
        return ["missing"]

    def __getitem__(self, k):
        raise KeyError(k)


for fn in [lambda: dict(BadMapping()), lambda: {}.update(BadMapping()), lambda: dict(5), lambda: {**OnlyIter()}, lambda: show(**OnlyIter())]:
    try:
        print(fn())
    except (KeyError, TypeError) as e:
        print(type(e).__name__, e)
