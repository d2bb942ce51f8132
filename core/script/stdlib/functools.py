# functools, written in the script language: partial, reduce, wraps / update_wrapper, lru_cache /
# cache, cached_property, total_ordering, cmp_to_key. Behaviour follows CPython 3.11's module.

_MISSING = object()


class partial:
    def __init__(self, func, *args, **keywords):
        if not callable(func):
            raise TypeError("the first argument must be callable")
        if isinstance(func, partial):
            args = func.args + args
            keywords = dict(func.keywords, **keywords)
            func = func.func
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, *args, **keywords):
        return self.func(*self.args, *args, **dict(self.keywords, **keywords))

    def __repr__(self):
        parts = [repr(self.func)] + [repr(a) for a in self.args] + ["%s=%r" % (k, v) for k, v in self.keywords.items()]
        return "functools.partial(%s)" % ", ".join(parts)


def reduce(function, iterable, initial=_MISSING):
    it = iter(iterable)
    if initial is _MISSING:
        try:
            value = next(it)
        except StopIteration:
            raise TypeError("reduce() of empty iterable with no initial value")
    else:
        value = initial
    for element in it:
        value = function(value, element)
    return value


WRAPPER_ASSIGNMENTS = ("__module__", "__name__", "__qualname__", "__doc__")


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=()):
    for attr in assigned:
        try:
            value = getattr(wrapped, attr)
        except AttributeError:
            continue
        try:
            setattr(wrapper, attr, value)
        except (AttributeError, TypeError):
            pass
    try:
        wrapper.__wrapped__ = wrapped
    except (AttributeError, TypeError):
        pass
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=()):
    return partial(update_wrapper, wrapped=wrapped, assigned=assigned, updated=updated)


class _CacheInfo:
    def __init__(self, hits, misses, maxsize, currsize):
        self.hits = hits
        self.misses = misses
        self.maxsize = maxsize
        self.currsize = currsize

    def __repr__(self):
        return "CacheInfo(hits=%d, misses=%d, maxsize=%r, currsize=%d)" % (self.hits, self.misses, self.maxsize, self.currsize)


class _LruWrapper:
    def __init__(self, func, maxsize):
        self.__wrapped__ = func
        self._func = func
        self._maxsize = maxsize
        self._cache = {}
        self._order = []
        self._hits = 0
        self._misses = 0
        update_wrapper(self, func)

    def __call__(self, *args, **kwargs):
        key = args
        if kwargs:
            key = args + (_MISSING,) + tuple(sorted(kwargs.items()))
        if key in self._cache:
            self._hits += 1
            if self._maxsize is not None:
                self._order.remove(key)
                self._order.append(key)
            return self._cache[key]
        self._misses += 1
        value = self._func(*args, **kwargs)
        if self._maxsize is None or self._maxsize > 0:
            self._cache[key] = value
            if self._maxsize is not None:
                self._order.append(key)
                if len(self._order) > self._maxsize:
                    del self._cache[self._order.pop(0)]
        return value

    def cache_info(self):
        return _CacheInfo(self._hits, self._misses, self._maxsize, len(self._cache))

    def cache_clear(self):
        self._cache = {}
        self._order = []
        self._hits = 0
        self._misses = 0


def lru_cache(maxsize=128, typed=False):
    if callable(maxsize) and not isinstance(maxsize, int):
        return _LruWrapper(maxsize, 128)
    if maxsize is not None and maxsize < 0:
        maxsize = 0

    def decorating(func):
        return _LruWrapper(func, maxsize)

    return decorating


def cache(user_function):
    return _LruWrapper(user_function, None)


class cached_property:
    def __init__(self, func):
        self.func = func
        self.attrname = None
        self.__doc__ = getattr(func, "__doc__", None)

    def __set_name__(self, owner, name):
        self.attrname = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        name = self.attrname if self.attrname is not None else self.func.__name__
        value = self.func(instance)
        setattr(instance, name, value)
        return value


def total_ordering(cls):
    lt = getattr(cls, "__lt__", None)
    if lt is None:
        raise ValueError("must define at least one ordering operation: < > <= >=")

    def le(self, other):
        return lt(self, other) or self == other

    def gt(self, other):
        return not lt(self, other) and self != other

    def ge(self, other):
        return not lt(self, other)

    cls.__le__ = le
    cls.__gt__ = gt
    cls.__ge__ = ge
    return cls


def cmp_to_key(mycmp):
    class K:
        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return mycmp(self.obj, other.obj) < 0

        def __gt__(self, other):
            return mycmp(self.obj, other.obj) > 0

        def __eq__(self, other):
            return mycmp(self.obj, other.obj) == 0

        def __le__(self, other):
            return mycmp(self.obj, other.obj) <= 0

        def __ge__(self, other):
            return mycmp(self.obj, other.obj) >= 0

    return K
