# types, written in the script language: the types of the interpreter's own objects (functions,
# lambdas, generators, builtins, modules, None, Ellipsis, NotImplemented), taken from such
# objects so that isinstance agrees with CPython 3.11, and SimpleNamespace, MappingProxyType,
# MethodType, new_class, resolve_bases and prepare_class written here.
#
# What differs from CPython, each for a reason in the interpreter: a bound method of the
# script's own (obj.method) has the builtins' type there, so isinstance(obj.method, MethodType)
# is False and isinstance(obj.method, BuiltinFunctionType) True (MethodType(func, obj) makes
# one that is a MethodType); ModuleType cannot be called to make a module; CodeType, FrameType,
# TracebackType and the descriptor types are absent (functions have no __code__, there are no
# frames to see); the message for a missing SimpleNamespace attribute names 'SimpleNamespace',
# not 'types.SimpleNamespace' (the interpreter writes that message itself).
import sys as _sys

__all__ = ["FunctionType", "LambdaType", "GeneratorType", "BuiltinFunctionType", "BuiltinMethodType",
           "ModuleType", "NoneType", "EllipsisType", "NotImplementedType", "SimpleNamespace",
           "MappingProxyType", "MethodType", "new_class", "resolve_bases", "prepare_class"]


def _function():
    pass


def _generator():
    yield None


FunctionType = type(_function)
LambdaType = FunctionType  # a lambda's type is the function type
_gen = _generator()
GeneratorType = type(_gen)
del _gen
BuiltinFunctionType = type(abs)
BuiltinMethodType = type([].pop)
ModuleType = type(_sys)
NoneType = type(None)
EllipsisType = type(...)
NotImplementedType = type(NotImplemented)


class SimpleNamespace:
    # attributes from the keyword arguments; repr lists them in the order they were set;
    # equal when both are namespaces with equal attributes; not hashable

    def __init__(self, *args, **kwargs):
        if args:
            raise TypeError("no positional arguments expected")
        for key, value in kwargs.items():
            setattr(self, key, value)

    def __repr__(self):
        label = "namespace" if type(self) is SimpleNamespace else type(self).__name__
        key = id(self)
        if key in _in_repr:
            return label + "(...)"
        _in_repr.add(key)
        try:
            # a namespace inside is asked directly, so that one met again shows as name(...)
            shown = ["%s=%s" % (k, v.__repr__() if isinstance(v, SimpleNamespace) else repr(v))
                     for k, v in self.__dict__.items()]
        finally:
            _in_repr.discard(key)
        return "%s(%s)" % (label, ", ".join(shown))

    def __eq__(self, other):
        if isinstance(other, SimpleNamespace):
            return self.__dict__ == other.__dict__
        return self is other

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        raise TypeError("unhashable type: '%s'" % _type_label(self))

    def __delattr__(self, name):
        if name not in self.__dict__:
            raise AttributeError("'%s' object has no attribute '%s'" % (_type_label(self), name))
        object.__delattr__(self, name)


_in_repr = set()


def _type_label(obj):
    # how CPython names the type in messages: the C type by its full name, a subclass by its own
    return "types.SimpleNamespace" if type(obj) is SimpleNamespace else type(obj).__name__


def _is_mapping(obj):
    # as CPython decides: anything subscriptable but a list or a tuple (a str passes)
    if isinstance(obj, (list, tuple)):
        return False
    if isinstance(obj, (dict, str, range, mappingproxy)):
        return True
    return hasattr(obj, "__getitem__")


class mappingproxy:
    # a read-only view of a mapping: changes to the mapping show through, the view has no
    # way to change it
    __module__ = "builtins"
    __abc_tpflags__ = 1 << 6  # a mapping to `match`

    def __init__(self, mapping):
        if not _is_mapping(mapping):
            raise TypeError("mappingproxy() argument must be a mapping, not %s" % type(mapping).__name__)
        object.__setattr__(self, "_target", mapping)

    def __setattr__(self, name, value):
        raise AttributeError("'mappingproxy' object has no attribute '%s'" % name)

    def __getitem__(self, key):
        return self._target[key]

    def __setitem__(self, key, value):
        raise TypeError("'mappingproxy' object does not support item assignment")

    def __delitem__(self, key):
        raise TypeError("'mappingproxy' object does not support item deletion")

    def get(self, key, default=None):
        return self._target.get(key, default)

    def keys(self):
        return self._target.keys()

    def values(self):
        return self._target.values()

    def items(self):
        return self._target.items()

    def copy(self):
        return self._target.copy()

    def __len__(self):
        return len(self._target)

    def __iter__(self):
        return iter(self._target)

    def __reversed__(self):
        return reversed(list(self._target))

    def __contains__(self, key):
        return key in self._target

    def __eq__(self, other):
        if isinstance(other, mappingproxy):
            other = other._target
        return self._target == other

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        raise TypeError("unhashable type: 'mappingproxy'")

    def __or__(self, other):
        if isinstance(other, mappingproxy):
            other = other._target
        merged = dict(self._target)
        merged.update(other)
        return merged

    def __ror__(self, other):
        merged = dict(other)
        merged.update(self._target)
        return merged

    def __repr__(self):
        return "mappingproxy(%r)" % (self._target,)

    def __str__(self):
        return str(self._target)


MappingProxyType = mappingproxy


class method:
    # a function bound to an object: calling it passes the object first
    __module__ = "builtins"

    def __init__(self, *args):
        if len(args) != 2:
            raise TypeError("method expected 2 arguments, got %d" % len(args))
        func, obj = args
        if not callable(func):
            raise TypeError("first argument must be callable")
        if obj is None:
            raise TypeError("instance must not be None")
        object.__setattr__(self, "__func__", func)
        object.__setattr__(self, "__self__", obj)
        # these the class has too: the function's are set on the method itself
        for attr in ("__qualname__", "__doc__", "__module__"):
            if hasattr(func, attr):
                object.__setattr__(self, attr, getattr(func, attr))

    def __call__(self, *args, **kwargs):
        return self.__func__(self.__self__, *args, **kwargs)

    def __getattr__(self, name):
        # __name__, __doc__, __wrapped__, ... are the function's
        return getattr(self.__func__, name)

    def __setattr__(self, name, value):
        raise AttributeError("'method' object has no attribute '%s'" % name)

    def __eq__(self, other):
        return isinstance(other, method) and self.__self__ is other.__self__ and self.__func__ == other.__func__

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((id(self.__self__), self.__func__))

    def __repr__(self):
        name = getattr(self.__func__, "__qualname__", None)
        if name is None:
            name = getattr(self.__func__, "__name__", "?")
        return "<bound method %s of %r>" % (name, self.__self__)


MethodType = method


def resolve_bases(bases):
    # a base that is not a class but has __mro_entries__ stands for what that returns
    out = []
    changed = False
    for base in bases:
        if not isinstance(base, type) and hasattr(base, "__mro_entries__"):
            out.extend(base.__mro_entries__(tuple(bases)))
            changed = True
        else:
            out.append(base)
    return tuple(out) if changed else bases


def prepare_class(name,
                  bases=(), kwds=None):
    kwds = {} if kwds is None else dict(kwds)
    meta = kwds.pop("metaclass", type)
    return meta, {}, kwds


def _class_with_bases(bases, kwds):
    # the interpreter has neither type(name, bases, ns) nor class C(*bases): one class
    # statement per number of bases
    count = len(bases)
    if count == 0:
        class made(**kwds):
            pass
    elif count == 1:
        class made(bases[0], **kwds):
            pass
    elif count == 2:
        class made(bases[0], bases[1], **kwds):
            pass
    elif count == 3:
        class made(bases[0], bases[1], bases[2], **kwds):
            pass
    elif count == 4:
        class made(bases[0], bases[1], bases[2], bases[3], **kwds):
            pass
    else:
        raise TypeError("types.new_class in model scripts takes at most 4 bases, not %d" % count)
    return made


def _default_repr(self):
    kind = type(self)
    return "<%s.%s object at 0x%x>" % (kind.__module__, kind.__qualname__, id(self))


def new_class(name, bases=(),
              kwds=None, exec_body=None):
    # exec_body fills the namespace first, as in CPython; the class is made, then given the
    # namespace's entries (so __init_subclass__ runs before they are there)
    resolved = resolve_bases(bases)
    meta, ns, kwds = prepare_class(name, resolved, kwds)
    if meta is not type:
        kwds["metaclass"] = meta
    if exec_body is not None:
        exec_body(ns)
    made = _class_with_bases(resolved, kwds)
    made.__name__ = name
    made.__qualname__ = ns.pop("__qualname__", name)
    for key, value in ns.items():
        setattr(made, key, value)
    if getattr(made, "__repr__", None) is None:
        # the default repr would show the class statement's name, not the one given here
        made.__repr__ = _default_repr
    for key, value in ns.items():
        hook = getattr(type(value), "__set_name__", None)
        if hook is not None:
            hook(value, made, key)
    return made
