# dataclasses, written in the script language for model code (configs such as a GPT's): dataclass
# with init, repr, eq, order, frozen, kw_only and __post_init__; field with default,
# default_factory, init, repr, compare, kw_only; fields, asdict, astuple, replace, is_dataclass.
# Behaviour and messages follow CPython 3.11's module. _own_attr, _base and _del_own_attr come from
# the interpreter (core/script/stdlib.cpp).


class _MISSING_TYPE:
    def __repr__(self):
        return "MISSING"


MISSING = _MISSING_TYPE()


class FrozenInstanceError(AttributeError):
    pass


class Field:
    def __init__(self, default, default_factory, init, repr, hash, compare, metadata, kw_only):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.metadata = {} if metadata is None else metadata
        self.kw_only = kw_only

    def __repr__(self):
        return ("Field(name=%r,type=%r,default=%r,default_factory=%r,init=%r,repr=%r,hash=%r,compare=%r,metadata=%r,kw_only=%r)"
                % (self.name, self.type, self.default, self.default_factory, self.init, self.repr, self.hash,
                   self.compare, self.metadata, self.kw_only))


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None, compare=True, metadata=None,
          kw_only=MISSING):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def _is_classvar(t):
    if isinstance(t, str):
        return t.startswith("ClassVar") or t.startswith("typing.ClassVar")
    return repr(t).startswith("typing.ClassVar")


def _plural(names, what):
    quoted = ["'%s'" % n for n in names]
    if len(quoted) == 1:
        text = quoted[0]
    elif len(quoted) == 2:
        text = quoted[0] + " and " + quoted[1]
    else:
        text = ", ".join(quoted[:-1]) + ", and " + quoted[-1]
    return "%d required %s argument%s: %s" % (len(names), what, "" if len(names) == 1 else "s", text)


def _make_init(qualname, fields, frozen):
    init_fields = [f for f in fields if f.init]
    pos = [f for f in init_fields if not f.kw_only]
    names = [f.name for f in init_fields]
    required = len([f for f in pos if f.default is MISSING and f.default_factory is MISSING])

    def __init__(self, *args, **kwargs):
        if len(args) > len(pos):
            if required < len(pos):
                raise TypeError("%s.__init__() takes from %d to %d positional arguments but %d were given"
                                % (qualname, required + 1, len(pos) + 1, len(args) + 1))
            raise TypeError("%s.__init__() takes %d positional argument%s but %d were given"
                            % (qualname, len(pos) + 1, "" if len(pos) == 0 else "s", len(args) + 1))
        values = {}
        for i in range(len(args)):
            values[pos[i].name] = args[i]
        for k, v in kwargs.items():
            if k not in names:
                raise TypeError("%s.__init__() got an unexpected keyword argument '%s'" % (qualname, k))
            if k in values:
                raise TypeError("%s.__init__() got multiple values for argument '%s'" % (qualname, k))
            values[k] = v
        missing = [f.name for f in pos if f.name not in values and f.default is MISSING and f.default_factory is MISSING]
        if missing:
            raise TypeError("%s.__init__() missing %s" % (qualname, _plural(missing, "positional")))
        missing = [f.name for f in init_fields
                   if f.kw_only and f.name not in values and f.default is MISSING and f.default_factory is MISSING]
        if missing:
            raise TypeError("%s.__init__() missing %s" % (qualname, _plural(missing, "keyword-only")))
        for f in fields:
            if f.init and f.name in values:
                v = values[f.name]
            elif f.default_factory is not MISSING:
                v = f.default_factory()
            elif f.default is not MISSING:
                v = f.default
            else:
                continue
            if frozen:
                object.__setattr__(self, f.name, v)
            else:
                setattr(self, f.name, v)
        post = getattr(self, "__post_init__", None)
        if post is not None:
            post()

    return __init__


def _make_repr(fields):
    shown = [f for f in fields if f.repr]

    def __repr__(self):
        return "%s(%s)" % (type(self).__qualname__, ", ".join("%s=%r" % (f.name, getattr(self, f.name)) for f in shown))

    return __repr__


def _key(obj, fields):
    return tuple(getattr(obj, f.name) for f in fields if f.compare)


def _make_eq(fields):
    def __eq__(self, other):
        if type(other) is type(self):
            return _key(self, fields) == _key(other, fields)
        return NotImplemented

    return __eq__


def _make_order(fields):
    def lt(self, other):
        if type(other) is type(self):
            return _key(self, fields) < _key(other, fields)
        return NotImplemented

    def le(self, other):
        if type(other) is type(self):
            return _key(self, fields) <= _key(other, fields)
        return NotImplemented

    def gt(self, other):
        if type(other) is type(self):
            return _key(self, fields) > _key(other, fields)
        return NotImplemented

    def ge(self, other):
        if type(other) is type(self):
            return _key(self, fields) >= _key(other, fields)
        return NotImplemented

    return lt, le, gt, ge


def _make_frozen(names):
    def __setattr__(self, name, value):
        if name in names:
            raise FrozenInstanceError("cannot assign to field '%s'" % name)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in names:
            raise FrozenInstanceError("cannot delete field '%s'" % name)
        object.__delattr__(self, name)

    return __setattr__, __delattr__


def _process_class(cls, init, repr, eq, order, frozen, kw_only, match_args=True):
    fields = {}
    bases = []
    b = _base(cls)
    while b is not None:
        bases.append(b)
        b = _base(b)
    for b in reversed(bases):
        inherited = _own_attr(b, "__dataclass_fields__", None)
        if inherited is not None:
            for f in inherited.values():
                fields[f.name] = f
    for name, typ in _own_attr(cls, "__annotations__", {}).items():
        if _is_classvar(typ):
            continue
        default = getattr(cls, name, MISSING)
        if isinstance(default, Field):
            f = default
        else:
            f = field(default=default)
        f.name = name
        f.type = typ
        if f.kw_only is MISSING:
            f.kw_only = kw_only
        if type(f.default) in (list, dict, set):
            raise ValueError("mutable default %s for field %s is not allowed: use default_factory" % (type(f.default), name))
        if isinstance(default, Field):
            if f.default is MISSING:
                _del_own_attr(cls, name)
            else:
                setattr(cls, name, f.default)
        fields[name] = f
    flist = list(fields.values())
    if init:
        seen_default = False
        for f in flist:
            if not f.init or f.kw_only:
                continue
            if f.default is not MISSING or f.default_factory is not MISSING:
                seen_default = True
            elif seen_default:
                raise TypeError("non-default argument '%s' follows default argument" % f.name)
    setattr(cls, "__dataclass_fields__", fields)
    qualname = cls.__qualname__
    if init:
        setattr(cls, "__init__", _make_init(qualname, flist, frozen))
    if repr:
        setattr(cls, "__repr__", _make_repr(flist))
    if eq:
        setattr(cls, "__eq__", _make_eq(flist))
    if order:
        if not eq:
            raise ValueError("eq must be true if order is true")
        lt, le, gt, ge = _make_order(flist)
        setattr(cls, "__lt__", lt)
        setattr(cls, "__le__", le)
        setattr(cls, "__gt__", gt)
        setattr(cls, "__ge__", ge)
    if frozen:
        sa, da = _make_frozen([f.name for f in flist])
        setattr(cls, "__setattr__", sa)
        setattr(cls, "__delattr__", da)
    if eq and not frozen:
        setattr(cls, "__hash__", None)
    elif eq and frozen:
        def __hash__(self):
            return hash(_key(self, flist))
        setattr(cls, "__hash__", __hash__)
    if match_args and "__match_args__" not in cls.__dict__:
        setattr(cls, "__match_args__", tuple(f.name for f in flist if f.init and not f.kw_only))
    return cls


def dataclass(cls=None, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False,
              match_args=True, kw_only=False, slots=False):
    def wrap(c):
        return _process_class(c, init, repr, eq, order, frozen, kw_only, match_args)

    if cls is None:
        return wrap
    return wrap(cls)


def is_dataclass(obj):
    c = obj if isinstance(obj, type) else type(obj)
    return hasattr(c, "__dataclass_fields__")


def fields(class_or_instance):
    c = class_or_instance if isinstance(class_or_instance, type) else type(class_or_instance)
    fs = getattr(c, "__dataclass_fields__", None)
    if fs is None:
        raise TypeError("must be called with a dataclass type or instance")
    return tuple(fs.values())


def _convert(obj, factory, as_tuple):
    if is_dataclass(obj) and not isinstance(obj, type):
        items = [(f.name, _convert(getattr(obj, f.name), factory, as_tuple)) for f in fields(obj)]
        if as_tuple:
            return factory([v for _, v in items])
        return factory(items)
    if isinstance(obj, list):
        return [_convert(v, factory, as_tuple) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_convert(v, factory, as_tuple) for v in obj)
    if isinstance(obj, dict):
        return {_convert(k, factory, as_tuple): _convert(v, factory, as_tuple) for k, v in obj.items()}
    return obj


def asdict(obj, *, dict_factory=dict):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("asdict() should be called on dataclass instances")
    return _convert(obj, dict_factory, False)


def astuple(obj, *, tuple_factory=tuple):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("astuple() should be called on dataclass instances")
    return _convert(obj, tuple_factory, True)


def replace(obj, **changes):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("replace() should be called on dataclass instances")
    for f in fields(obj):
        if not f.init:
            if f.name in changes:
                raise ValueError("field %s is declared with init=False, it cannot be specified with replace()" % f.name)
            continue
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return type(obj)(**changes)
