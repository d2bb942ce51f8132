# enum, written in the script language on the interpreter's metaclasses: Enum, IntEnum, Flag,
# IntFlag, StrEnum, auto, unique, EnumType (EnumMeta). CPython 3.11's reprs, strs and messages.
# Limits: IntEnum / IntFlag / StrEnum members act as ints / strs (arithmetic, comparison, hash,
# indexing) but are not int or str instances, since script classes cannot subclass those types;
# a mixin type (class Mode(str, Enum)) is refused for the same reason.

_FIRST = 1


class auto:
    # A placeholder for a value the enum class chooses (_generate_next_value_).
    def __init__(self):
        self.value = None

    def __repr__(self):
        return "auto(%r)" % (self.value,)


class _MembersView:
    # What EnumType.__members__ gives: a read-only name -> member mapping.
    def __init__(self, table):
        self._table = table

    def __getitem__(self, key):
        return self._table[key]

    def __iter__(self):
        return iter(self._table)

    def __len__(self):
        return len(self._table)

    def __contains__(self, key):
        return key in self._table

    def keys(self):
        return self._table.keys()

    def values(self):
        return self._table.values()

    def items(self):
        return self._table.items()

    def get(self, key, default=None):
        return self._table.get(key, default)

    def __repr__(self):
        return "mappingproxy(%r)" % (self._table,)

    def __str__(self):
        return str(self._table)


def _is_hidden(name, value):
    # Names and values of a class body that never become members.
    if name[:2] == "__" and name[-2:] == "__":
        return True
    if name[:1] == "_" and name[-1:] == "_" and len(name) > 2:
        return True
    if isinstance(value, (property, classmethod, staticmethod)):
        return True
    return callable(value) and not isinstance(value, auto)


def _default_next(name, start, count, last_values):
    if not last_values:
        return start
    try:
        return last_values[-1] + 1
    except TypeError:
        raise TypeError("unable to sort non-numeric values") from None


def _flag_next(name, start, count, last_values):
    if not last_values:
        return start
    top = max(last_values)
    return 1 << top.bit_length() if top > 0 else 1


def _check_bases(name, bases):
    # An enum class with members cannot be extended.
    for b in bases:
        if isinstance(b, EnumType) and b._member_names_:
            raise TypeError("<enum %r> cannot extend %r" % (name, b))


class EnumType(type):
    def __new__(mcs, name, bases, ns, boundary=None, **kw):
        _check_bases(name, bases)
        ignored = ns.get("_ignore_", [])
        if isinstance(ignored, str):
            ignored = ignored.replace(",", " ").split()
        chooser = ns.get("_generate_next_value_")
        if isinstance(chooser, staticmethod):
            chooser = chooser.__func__
        pairs = []
        body = {}
        for key, value in ns.items():
            if key in ignored or key == "_ignore_":
                continue
            if _is_hidden(key, value):
                body[key] = value
            else:
                pairs.append((key, value))
        cls = super().__new__(mcs, name, bases, body, **kw)
        if chooser is None:
            chooser = cls._generate_next_value_
        type.__setattr__(cls, "_member_names_", [])
        type.__setattr__(cls, "_member_map_", {})
        type.__setattr__(cls, "_value2member_map_", {})
        seen = []
        for key, value in pairs:
            if isinstance(value, auto):
                if value.value is None:
                    value.value = chooser(key, _FIRST, len(seen), list(seen))
                value = value.value
            seen.append(value)
            cls._add_member_(key, value)
        return cls

    def _add_member_(cls, key, value):
        for other in cls._member_names_:
            if cls._member_map_[other]._value_ == value:
                cls._member_map_[key] = cls._member_map_[other] # an alias
                type.__setattr__(cls, key, cls._member_map_[other])
                return
        member = object.__new__(cls)
        member._name_ = key
        member._value_ = value
        init = cls.__dict__.get("__init__")
        if init is not None:
            init(member, *value) if isinstance(value, tuple) else init(member, value)
        cls._member_names_.append(key)
        cls._member_map_[key] = member
        try:
            cls._value2member_map_[value] = member
        except TypeError:
            pass
        type.__setattr__(cls, key, member)

    def __call__(cls, value, names=None, *, module=None, qualname=None, type=None, start=1, boundary=None):
        if names is None:
            return cls._lookup_(value)
        return cls._functional_(value, names, start)

    def _lookup_(cls, value):
        if isinstance(value, cls):
            return value
        try:
            return cls._value2member_map_[value]
        except (KeyError, TypeError):
            pass
        for name in cls._member_names_:
            if cls._member_map_[name]._value_ == value:
                return cls._member_map_[name]
        found = cls._missing_(value)
        if isinstance(found, cls):
            return found
        if found is not None:
            raise TypeError("error in %s._missing_: returned %r instead of None or a valid member"
                            % (cls.__name__, found))
        raise ValueError("%r is not a valid %s" % (value, cls.__qualname__))

    def _functional_(cls, name, names, start):
        if isinstance(names, str):
            names = names.replace(",", " ").split()
        ns = {}
        items = list(names.items()) if isinstance(names, dict) else list(names)
        for i, item in enumerate(items):
            if isinstance(item, str):
                ns[item] = start + i
            else:
                ns[item[0]] = item[1]
        return cls.__class__.__new__(cls.__class__, name, (cls,), ns)

    def __iter__(cls):
        return (cls._member_map_[name] for name in cls._member_names_)

    def __reversed__(cls):
        return (cls._member_map_[name] for name in reversed(cls._member_names_))

    def __len__(cls):
        return len(cls._member_names_)

    def __bool__(cls):
        return True

    def __contains__(cls, member):
        if not isinstance(member, Enum):
            raise TypeError("unsupported operand type(s) for 'in': '%s' and '%s'"
                            % (type(member).__qualname__, cls.__class__.__qualname__))
        return isinstance(member, cls) and member._name_ in cls._member_map_

    def __getitem__(cls, name):
        return cls._member_map_[name]

    def __setattr__(cls, name, value):
        if name in cls.__dict__.get("_member_map_", {}):
            raise AttributeError("cannot reassign member %r" % (name,))
        type.__setattr__(cls, name, value)

    def __repr__(cls):
        return "<%s %r>" % ("flag" if issubclass(cls, Flag) else "enum", cls.__name__)

    @property
    def __members__(cls):
        return _MembersView(dict(cls._member_map_))


EnumMeta = EnumType


class Enum(metaclass=EnumType):
    _generate_next_value_ = staticmethod(_default_next)

    @classmethod
    def _missing_(cls, value):
        return None

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_

    def __repr__(self):
        return "<%s.%s: %r>" % (type(self).__name__, self._name_, self._value_)

    def __str__(self):
        return "%s.%s" % (type(self).__name__, self._name_)

    def __format__(self, spec):
        return format(str(self), spec)

    def __hash__(self):
        return hash(self._name_)


class _ValueLike:
    # Members that stand for their value (IntEnum, IntFlag, StrEnum): str, format, equality, hash
    # and ordering are the value's.
    def __str__(self):
        return str(self._value_)

    def __format__(self, spec):
        return format(self._value_, spec)

    def __eq__(self, other):
        return self._value_ == _plain(other)

    def __ne__(self, other):
        return self._value_ != _plain(other)

    def __hash__(self):
        return hash(self._value_)

    def __lt__(self, other):
        return self._value_ < _plain(other)

    def __le__(self, other):
        return self._value_ <= _plain(other)

    def __gt__(self, other):
        return self._value_ > _plain(other)

    def __ge__(self, other):
        return self._value_ >= _plain(other)


def _plain(x):
    return x._value_ if isinstance(x, _ValueLike) else x


class _IntLike(_ValueLike):
    def __int__(self):
        return self._value_

    def __index__(self):
        return self._value_

    def __float__(self):
        return float(self._value_)

    def __bool__(self):
        return self._value_ != 0

    def __neg__(self):
        return -self._value_

    def __pos__(self):
        return self._value_

    def __abs__(self):
        return abs(self._value_)

    def __add__(self, o):
        return self._value_ + _plain(o)

    def __radd__(self, o):
        return _plain(o) + self._value_

    def __sub__(self, o):
        return self._value_ - _plain(o)

    def __rsub__(self, o):
        return _plain(o) - self._value_

    def __mul__(self, o):
        return self._value_ * _plain(o)

    def __rmul__(self, o):
        return _plain(o) * self._value_

    def __truediv__(self, o):
        return self._value_ / _plain(o)

    def __rtruediv__(self, o):
        return _plain(o) / self._value_

    def __floordiv__(self, o):
        return self._value_ // _plain(o)

    def __rfloordiv__(self, o):
        return _plain(o) // self._value_

    def __mod__(self, o):
        return self._value_ % _plain(o)

    def __rmod__(self, o):
        return _plain(o) % self._value_

    def __pow__(self, o):
        return self._value_ ** _plain(o)

    def __rpow__(self, o):
        return _plain(o) ** self._value_

    def __lshift__(self, o):
        return self._value_ << _plain(o)

    def __rshift__(self, o):
        return self._value_ >> _plain(o)


class IntEnum(_IntLike, Enum):
    pass


class StrEnum(_ValueLike, Enum):
    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()

    def __len__(self):
        return len(self._value_)

    def __add__(self, o):
        return self._value_ + _plain(o)

    def __radd__(self, o):
        return _plain(o) + self._value_

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._value_, name)


class Flag(Enum):
    _generate_next_value_ = staticmethod(_flag_next)

    @classmethod
    def _missing_(cls, value):
        if not isinstance(value, int):
            return None
        whole = 0
        for name in cls._member_names_:
            whole |= cls._member_map_[name]._value_
        if value < 0:
            value = value & whole
        if value & ~whole and not issubclass(cls, IntFlag):
            return None
        return cls._combine_(value)

    @classmethod
    def _combine_(cls, value):
        # The member for a combination of flags (made once, then kept like the others).
        if value in cls._value2member_map_:
            return cls._value2member_map_[value]
        parts = []
        rest = value
        for name in cls._member_names_:
            v = cls._member_map_[name]._value_
            if v and v & (v - 1) == 0 and v & value == v:
                parts.append(name)
                rest &= ~v
        if rest:
            parts.append(str(rest) if issubclass(cls, IntFlag) else None)
        member = object.__new__(cls)
        member._value_ = value
        member._name_ = "|".join(parts) if parts else None
        cls._value2member_map_[value] = member
        return member

    def _bits_(self):
        return [self.__class__._member_map_[n] for n in self.__class__._member_names_
                if self.__class__._member_map_[n]._value_ & self._value_ == self.__class__._member_map_[n]._value_
                and self.__class__._member_map_[n]._value_ and self.__class__._member_map_[n]._value_ & (self.__class__._member_map_[n]._value_ - 1) == 0]

    def __repr__(self):
        if self._name_ is None:
            return "<%s: %r>" % (type(self).__name__, self._value_)
        return "<%s.%s: %r>" % (type(self).__name__, self._name_, self._value_)

    def __str__(self):
        if self._name_ is None:
            return "%s(%r)" % (type(self).__name__, self._value_)
        return "%s.%s" % (type(self).__name__, self._name_)

    def __bool__(self):
        return bool(self._value_)

    def __iter__(self):
        return iter(self._bits_())

    def __len__(self):
        return len(self._bits_())

    def __contains__(self, other):
        if not isinstance(other, self.__class__):
            raise TypeError("unsupported operand type(s) for 'in': %r and %r"
                            % (type(other).__qualname__, self.__class__.__qualname__))
        return other._value_ & self._value_ == other._value_

    def _other_(self, other):
        if isinstance(other, self.__class__):
            return other._value_
        if isinstance(self, IntFlag) and isinstance(other, int):
            return other
        return None

    def __or__(self, other):
        v = self._other_(other)
        return NotImplemented if v is None else self.__class__(self._value_ | v)

    def __and__(self, other):
        v = self._other_(other)
        return NotImplemented if v is None else self.__class__(self._value_ & v)

    def __xor__(self, other):
        v = self._other_(other)
        return NotImplemented if v is None else self.__class__(self._value_ ^ v)

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__

    def __invert__(self):
        whole = 0
        for name in self.__class__._member_names_:
            whole |= self.__class__._member_map_[name]._value_
        return self.__class__(whole & ~self._value_)


class IntFlag(_IntLike, Flag):
    pass


def unique(enumeration):
    twins = []
    for name, member in enumeration.__members__.items():
        if name != member.name:
            twins.append("%s -> %s" % (name, member.name))
    if twins:
        raise ValueError("duplicate values found in %r: %s" % (enumeration, ", ".join(twins)))
    return enumeration
