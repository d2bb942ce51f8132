# bisect, written in the script language: binary search over a sorted sequence and insertion
# that keeps it sorted, with lo / hi bounds and a key function (applied to the sequence's items,
# not to the value searched for), as CPython 3.11's module behaves.


def _bounds(seq, lo, hi):
    # lo must be an int >= 0; hi left out (or -1, as CPython's C code takes it) means the end
    if not isinstance(lo, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(lo).__name__)
    if lo < 0:
        raise ValueError("lo must be non-negative")
    if hi is None or (isinstance(hi, int) and hi == -1):
        hi = len(seq)
    elif not isinstance(hi, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(hi).__name__)
    return lo, hi


def bisect_left(a, x,
                lo=0, hi=None, *, key=None):
    # the first position p in [lo, hi] with x <= a[p] (every item before it compares less than x)
    lo, hi = _bounds(a, lo, hi)
    while lo < hi:
        middle = (lo + hi) // 2
        probe = a[middle] if key is None else key(a[middle])
        if probe < x:
            lo = middle + 1
        else:
            hi = middle
    return lo


def bisect_right(a, x,
                 lo=0, hi=None, *, key=None):
    # the first position p in [lo, hi] with x < a[p] (equal items stay to its left)
    lo, hi = _bounds(a, lo, hi)
    while lo < hi:
        middle = (lo + hi) // 2
        probe = a[middle] if key is None else key(a[middle])
        if x < probe:
            hi = middle
        else:
            lo = middle + 1
    return lo


def insort_left(a, x,
                lo=0, hi=None, *, key=None):
    at = bisect_left(a, x if key is None else key(x), lo, hi, key=key)
    a.insert(at, x)


def insort_right(a, x,
                 lo=0, hi=None, *, key=None):
    at = bisect_right(a, x if key is None else key(x), lo, hi, key=key)
    a.insert(at, x)


bisect = bisect_right
insort = insort_right
