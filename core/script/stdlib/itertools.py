# itertools, written in the script language: lazy iterator classes (count and cycle are endless),
# following CPython 3.11's module for the functions model code uses.

_MISSING = object()


class _Iter:
    def __iter__(self):
        return self


class count(_Iter):
    def __init__(self, start=0, step=1):
        self._n = start
        self._step = step

    def __next__(self):
        n = self._n
        self._n += self._step
        return n

    def __repr__(self):
        return "count(%r)" % self._n if self._step == 1 else "count(%r, %r)" % (self._n, self._step)


class repeat(_Iter):
    def __init__(self, obj, times=None):
        self._obj = obj
        self._left = times

    def __next__(self):
        if self._left is not None:
            if self._left <= 0:
                raise StopIteration
            self._left -= 1
        return self._obj


class cycle(_Iter):
    def __init__(self, iterable):
        self._it = iter(iterable)
        self._saved = []
        self._i = -1

    def __next__(self):
        if self._i < 0:
            try:
                x = next(self._it)
                self._saved.append(x)
                return x
            except StopIteration:
                if not self._saved:
                    raise
                self._i = 0
        x = self._saved[self._i]
        self._i = (self._i + 1) % len(self._saved)
        return x


class chain(_Iter):
    def __init__(self, *iterables):
        self._sources = iter(iterables)
        self._cur = None

    @classmethod
    def from_iterable(cls, iterables):
        c = cls()
        c._sources = iter(iterables)
        return c

    def __next__(self):
        while True:
            if self._cur is None:
                self._cur = iter(next(self._sources))
            try:
                return next(self._cur)
            except StopIteration:
                self._cur = None


class islice(_Iter):
    def __init__(self, iterable, *args):
        if len(args) == 1:
            start, stop, step = 0, args[0], 1
        elif len(args) in (2, 3):
            start, stop = args[0], args[1]
            step = args[2] if len(args) == 3 else 1
        else:
            raise TypeError("islice expected 2 to 4 arguments, got %d" % (len(args) + 1))
        start = 0 if start is None else start
        step = 1 if step is None else step
        if start < 0 or (stop is not None and stop < 0) or step <= 0:
            raise ValueError("Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.")
        self._it = iter(iterable)
        self._next = start
        self._stop = stop
        self._step = step
        self._pos = 0

    def __next__(self):
        if self._stop is not None and self._next >= self._stop:
            raise StopIteration
        while self._pos < self._next:
            next(self._it)
            self._pos += 1
        x = next(self._it)
        self._pos += 1
        self._next += self._step
        return x


class accumulate(_Iter):
    def __init__(self, iterable, func=None, *, initial=None):
        self._it = iter(iterable)
        self._func = func
        self._total = initial
        self._started = initial is not None
        self._emit_initial = initial is not None

    def __next__(self):
        if self._emit_initial:
            self._emit_initial = False
            return self._total
        x = next(self._it)
        if not self._started:
            self._started = True
            self._total = x
        else:
            self._total = self._func(self._total, x) if self._func is not None else self._total + x
        return self._total


class starmap(_Iter):
    def __init__(self, function, iterable):
        self._f = function
        self._it = iter(iterable)

    def __next__(self):
        return self._f(*next(self._it))


class takewhile(_Iter):
    def __init__(self, predicate, iterable):
        self._p = predicate
        self._it = iter(iterable)
        self._done = False

    def __next__(self):
        if self._done:
            raise StopIteration
        x = next(self._it)
        if not self._p(x):
            self._done = True
            raise StopIteration
        return x


class dropwhile(_Iter):
    def __init__(self, predicate, iterable):
        self._p = predicate
        self._it = iter(iterable)
        self._dropping = True

    def __next__(self):
        while self._dropping:
            x = next(self._it)
            if not self._p(x):
                self._dropping = False
                return x
        return next(self._it)


class zip_longest(_Iter):
    def __init__(self, *iterables, fillvalue=None):
        self._its = [iter(i) for i in iterables]
        self._fill = fillvalue
        self._active = len(self._its)

    def __next__(self):
        if not self._its or self._active == 0:
            raise StopIteration
        out = []
        for i in range(len(self._its)):
            it = self._its[i]
            if it is None:
                out.append(self._fill)
                continue
            try:
                out.append(next(it))
            except StopIteration:
                self._its[i] = None
                self._active -= 1
                if self._active == 0:
                    raise
                out.append(self._fill)
        return tuple(out)


class pairwise(_Iter):
    def __init__(self, iterable):
        self._it = iter(iterable)
        self._prev = _MISSING

    def __next__(self):
        if self._prev is _MISSING:
            self._prev = next(self._it)
        x = next(self._it)
        pair = (self._prev, x)
        self._prev = x
        return pair


class groupby(_Iter):
    def __init__(self, iterable, key=None):
        self._items = list(iterable)
        self._key = key if key is not None else (lambda v: v)
        self._i = 0

    def __next__(self):
        if self._i >= len(self._items):
            raise StopIteration
        k = self._key(self._items[self._i])
        group = []
        while self._i < len(self._items) and self._key(self._items[self._i]) == k:
            group.append(self._items[self._i])
            self._i += 1
        return k, iter(group)


class compress(_Iter):
    def __init__(self, data, selectors):
        self._pairs = zip(data, selectors)

    def __next__(self):
        while True:
            d, s = next(self._pairs)
            if s:
                return d


class filterfalse(_Iter):
    def __init__(self, predicate, iterable):
        self._p = predicate if predicate is not None else bool
        self._it = iter(iterable)

    def __next__(self):
        while True:
            x = next(self._it)
            if not self._p(x):
                return x


def product(*iterables, repeat=1):
    pools = [tuple(p) for p in iterables] * repeat
    result = [()]
    for pool in pools:
        result = [r + (y,) for r in result for y in pool]
    return iter(result)


def permutations(iterable, r=None):
    pool = tuple(iterable)
    n = len(pool)
    r = n if r is None else r
    out = []

    def build(prefix, used):
        if len(prefix) == r:
            out.append(tuple(pool[i] for i in prefix))
            return
        for i in range(n):
            if i not in used:
                build(prefix + [i], used | {i})

    if r <= n:
        build([], set())
    return iter(out)


def _index_tuples(pool, r, again):
    """Tuples of r elements of pool in index order; `again` allows an index to repeat."""
    n = len(pool)
    out = []

    def build(start, prefix):
        if len(prefix) == r:
            out.append(tuple(pool[i] for i in prefix))
            return
        for i in range(start, n):
            build(i if again else i + 1, prefix + [i])

    build(0, [])
    return iter(out)


def combinations(iterable, r):
    pool = tuple(iterable)
    return _index_tuples(pool, r, False) if r <= len(pool) else iter([])


def combinations_with_replacement(iterable, r):
    pool = tuple(iterable)
    return _index_tuples(pool, r, True) if pool or not r else iter([])


def tee(iterable, n=2):
    items = list(iterable)
    return tuple(iter(list(items)) for _ in range(n))
