# collections, written in the script language around the interpreter's OrderedDict: namedtuple,
# defaultdict, deque and Counter, as CPython 3.11's module has them for model code. They are
# classes of their own rather than subclasses of tuple / dict / list.

OrderedDict = _OrderedDict


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(",", " ").split()
    fields = tuple(field_names)
    for name in fields:
        if name.startswith("_"):
            raise ValueError("Field names cannot start with an underscore: %r" % name)
    if len(set(fields)) != len(fields):
        raise ValueError("Encountered duplicate field name")
    defaults = tuple(defaults) if defaults is not None else ()
    if len(defaults) > len(fields):
        raise TypeError("Got more default values than field names")
    first_default = len(fields) - len(defaults)

    class _NT:
        __abc_tpflags__ = 1 << 5  # a sequence to `match`, as a tuple subclass is in CPython
        __match_args__ = fields
        _fields = fields
        _field_defaults = {fields[first_default + i]: defaults[i] for i in range(len(defaults))}

        def __init__(self, *args, **kwargs):
            if len(args) > len(fields):
                raise TypeError("%s.__new__() takes %d positional arguments but %d were given" % (typename, len(fields) + 1, len(args) + 1))
            values = list(args)
            for i in range(len(args), len(fields)):
                name = fields[i]
                if name in kwargs:
                    values.append(kwargs.pop(name))
                elif i >= first_default:
                    values.append(defaults[i - first_default])
                else:
                    missing = [n for n in fields[i:] if n not in kwargs and fields.index(n) < first_default]
                    raise TypeError("%s.__new__() missing %d required positional argument%s: %s"
                                    % (typename, len(missing), "" if len(missing) == 1 else "s",
                                       " and ".join("'%s'" % m for m in missing)))
            if kwargs:
                raise TypeError("%s.__new__() got an unexpected keyword argument '%s'" % (typename, list(kwargs)[0]))
            object.__setattr__(self, "_values", tuple(values))

        def __getattr__(self, name):
            if name in fields:
                return self._values[fields.index(name)]
            raise AttributeError("'%s' object has no attribute '%s'" % (typename, name))

        def __setattr__(self, name, value):
            raise AttributeError("can't set attribute")

        def __getitem__(self, i):
            return self._values[i]

        def __iter__(self):
            return iter(self._values)

        def __len__(self):
            return len(self._values)

        def __eq__(self, other):
            if isinstance(other, tuple):
                return self._values == other
            return hasattr(other, "_values") and self._values == other._values

        def __hash__(self):
            return hash(self._values)

        def __repr__(self):
            return "%s(%s)" % (typename, ", ".join("%s=%r" % (f, v) for f, v in zip(fields, self._values)))

        def _asdict(self):
            return dict(zip(fields, self._values))

        def _replace(self, **changes):
            return type(self)(**dict(self._asdict(), **changes))

        @classmethod
        def _make(cls, iterable):
            return cls(*iterable)

    _NT.__name__ = typename
    _NT.__qualname__ = typename
    return _NT


class _Mapping:
    # what defaultdict and Counter share over their dict, self._d
    __abc_tpflags__ = 1 << 6  # a mapping to `match`, as a dict subclass is in CPython

    def __contains__(self, key):
        return key in self._d

    def __len__(self):
        return len(self._d)

    def __iter__(self):
        return iter(self._d)

    def keys(self):
        return self._d.keys()

    def values(self):
        return self._d.values()

    def items(self):
        return self._d.items()

    def get(self, key, default=None):
        return self._d.get(key, default)


class defaultdict(_Mapping):
    def __init__(self, default_factory=None, *args, **kwargs):
        self.default_factory = default_factory
        self._d = dict(*args, **kwargs)

    def __getitem__(self, key):
        if key in self._d:
            return self._d[key]
        if self.default_factory is None:
            raise KeyError(key)
        value = self.default_factory()
        self._d[key] = value
        return value

    def __setitem__(self, key, value):
        self._d[key] = value

    def __delitem__(self, key):
        del self._d[key]

    def __eq__(self, other):
        return self._d == (other._d if isinstance(other, defaultdict) else other)


    def pop(self, key, *default):
        return self._d.pop(key, *default)

    def setdefault(self, key, default=None):
        return self._d.setdefault(key, default)

    def update(self, *args, **kwargs):
        self._d.update(*args, **kwargs)

    def clear(self):
        self._d.clear()

    def copy(self):
        return defaultdict(self.default_factory, self._d)

    def __repr__(self):
        f = self.default_factory
        fr = "None" if f is None else repr(f)
        return "defaultdict(%s, %r)" % (fr, self._d)


class Counter(_Mapping):
    def __init__(self, iterable=None, **kwargs):
        self._d = {}
        self.update(iterable, **kwargs)

    def update(self, iterable=None, **kwargs):
        if iterable is not None:
            if isinstance(iterable, (dict, Counter)):
                for k, v in iterable.items():
                    self._d[k] = self._d.get(k, 0) + v
            else:
                for k in iterable:
                    self._d[k] = self._d.get(k, 0) + 1
        for k, v in kwargs.items():
            self._d[k] = self._d.get(k, 0) + v

    def subtract(self, iterable=None, **kwargs):
        if iterable is not None:
            pairs = iterable.items() if isinstance(iterable, (dict, Counter)) else [(k, 1) for k in iterable]
            for k, v in pairs:
                self._d[k] = self._d.get(k, 0) - v
        for k, v in kwargs.items():
            self._d[k] = self._d.get(k, 0) - v

    def __getitem__(self, key):
        return self._d.get(key, 0)

    def __setitem__(self, key, value):
        self._d[key] = value

    def __delitem__(self, key):
        if key in self._d:
            del self._d[key]

    def __eq__(self, other):
        return isinstance(other, Counter) and self._d == other._d


    def total(self):
        return sum(self._d.values())

    def most_common(self, n=None):
        ordered = sorted(self._d.items(), key=lambda kv: kv[1], reverse=True)
        return ordered if n is None else ordered[:n]

    def elements(self):
        out = []
        for k, v in self._d.items():
            out.extend([k] * v)
        return iter(out)

    def __add__(self, other):
        r = Counter()
        for k in list(self._d) + [k for k in other._d if k not in self._d]:
            v = self[k] + other[k]
            if v > 0:
                r._d[k] = v
        return r

    def __sub__(self, other):
        r = Counter()
        for k in self._d:
            v = self[k] - other[k]
            if v > 0:
                r._d[k] = v
        return r

    def __repr__(self):
        if not self._d:
            return "Counter()"
        return "Counter({%s})" % ", ".join("%r: %r" % kv for kv in self.most_common())


class deque:
    __abc_tpflags__ = 1 << 5  # a sequence to `match`
    def __init__(self, iterable=(), maxlen=None):
        self.maxlen = maxlen
        self._items = []
        for x in iterable:
            self.append(x)

    def append(self, x):
        self._items.append(x)
        if self.maxlen is not None and len(self._items) > self.maxlen:
            self._items.pop(0)

    def appendleft(self, x):
        self._items.insert(0, x)
        if self.maxlen is not None and len(self._items) > self.maxlen:
            self._items.pop()

    def pop(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop()

    def popleft(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop(0)

    def extend(self, iterable):
        for x in iterable:
            self.append(x)

    def extendleft(self, iterable):
        for x in iterable:
            self.appendleft(x)

    def rotate(self, n=1):
        if self._items:
            n = n % len(self._items)
            self._items = self._items[-n:] + self._items[:-n] if n else self._items

    def clear(self):
        self._items = []

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(list(self._items))

    def __getitem__(self, i):
        return self._items[i]

    def __setitem__(self, i, v):
        self._items[i] = v

    def __contains__(self, x):
        return x in self._items

    def __eq__(self, other):
        return isinstance(other, deque) and self._items == other._items

    def __repr__(self):
        if self.maxlen is None:
            return "deque(%r)" % (self._items,)
        return "deque(%r, maxlen=%d)" % (self._items, self.maxlen)
