# heapq, written in the script language: a binary min-heap kept in a plain list (heap[k] <= its
# children heap[2k+1] and heap[2k+2]), with the same sifting as CPython 3.11's module, so a list
# holds its items in the same order there and here after every call; plus nsmallest / nlargest
# (with key) and a lazy merge of sorted inputs (with key and reverse).


def _need_list(heap, what):
    if not isinstance(heap, list):
        got = "None" if heap is None else type(heap).__name__
        raise TypeError("%s must be list, not %s" % (what, got))


def _less(a, b):
    return a < b


def _greater(a, b):
    return b < a


def _rise(heap, top, at, before=_less):
    # the item at `at` climbs toward `top` while it comes before its parent (`before`: _less for
    # the min-heap, _greater for the max-heap that merge(reverse=True) and nsmallest keep; both
    # compare with < only, as CPython does)
    moving = heap[at]
    while at > top:
        up = (at - 1) >> 1
        if before(moving, heap[up]):
            heap[at] = heap[up]
            at = up
            continue
        break
    heap[at] = moving


def _sink(heap, at, before=_less):
    # the item at `at` goes down to a leaf along the path of children that come first (each
    # child moves up one level), then climbs back to where it belongs: fewer comparisons than
    # stopping early
    size = len(heap)
    start = at
    moving = heap[at]
    kid = 2 * at + 1
    while kid < size:
        other = kid + 1
        if other < size and not before(heap[kid], heap[other]):
            kid = other
        heap[at] = heap[kid]
        at = kid
        kid = 2 * at + 1
    heap[at] = moving
    _rise(heap, start, at, before)


def heappush(heap, item):
    _need_list(heap, "heappush() argument 1")
    heap.append(item)
    _rise(heap, 0, len(heap) - 1)


def heappop(heap):
    _need_list(heap, "heappop() argument")
    if not heap:
        raise IndexError("index out of range")
    last = heap.pop()
    if not heap:
        return last
    smallest = heap[0]
    heap[0] = last
    _sink(heap, 0)
    return smallest


def heapreplace(heap, item):
    # pop then push, in one sift: the result may be larger than item
    _need_list(heap, "heapreplace() argument 1")
    if not heap:
        raise IndexError("index out of range")
    smallest = heap[0]
    heap[0] = item
    _sink(heap, 0)
    return smallest


def heappushpop(heap, item):
    # push then pop, in one sift: item itself comes back when it is not larger than the top
    _need_list(heap, "heappushpop() argument 1")
    if heap and heap[0] < item:
        smallest = heap[0]
        heap[0] = item
        _sink(heap, 0)
        return smallest
    return item


def heapify(x):
    _need_list(x, "heapify() argument")
    for at in range(len(x) // 2 - 1, -1, -1):
        _sink(x, at)


_NOTHING = object()


def _select(n, iterable, key, largest):
    # nsmallest / nlargest: the n best items met so far sit in a heap of tuples (sort key, rank,
    # item) or (item, rank) with the worst kept at the top (a max-heap for nsmallest); an item
    # comes in only if it beats that top. Rank counts up for nsmallest and down for nlargest so
    # that, of items that compare equal, the earlier one wins and comes first. For what == and
    # < agree on this is sorted(iterable, key=key, reverse=largest)[:n], as documented.
    if n == 1:
        pick = max if largest else min
        if key is None:
            best = pick(iter(iterable), default=_NOTHING)
        else:
            best = pick(iter(iterable), default=_NOTHING, key=key)
        return [] if best is _NOTHING else [best]
    try:
        size = len(iterable)
    except (AttributeError, TypeError):
        size = None
    if size is not None and n >= size:
        return sorted(iterable, key=key, reverse=largest)[:n]
    if n <= 0:
        return []
    it = iter(iterable)
    step = -1 if largest else 1
    kept = []
    rank = 0
    for item in it:
        if key is None:
            kept.append((item, rank))
        else:
            kept.append((key(item), rank, item))
        rank += step
        if len(kept) == n:
            break
    if not kept:
        return kept
    before = _less if largest else _greater
    for at in range(len(kept) // 2 - 1, -1, -1):
        _sink(kept, at, before)
    worst = kept[0][0]
    for item in it:
        k = item if key is None else key(item)
        if (worst < k) if largest else (k < worst):
            kept[0] = (k, rank) if key is None else (k, rank, item)
            _sink(kept, 0, before)
            worst = kept[0][0]
        rank += step
    kept.sort(reverse=largest)
    return [entry[-1] if key is not None else entry[0] for entry in kept]


def nsmallest(n, iterable,
              key=None):
    return _select(n, iterable, key, False)


def nlargest(n, iterable,
             key=None):
    return _select(n, iterable, key, True)


def merge(*inputs, key=None, reverse=False):
    # A heap of entries [sort key, rank, value, iterator] (no separate sort key without key=),
    # one per input that still has items; rank is the input's position (negated for reverse, a
    # max-heap), so of equal keys the earlier input's item goes first. The entries compare as
    # lists do. key runs once per item as it is read; the last input left is passed through.
    before = _greater if reverse else _less
    sign = -1 if reverse else 1
    heap = []
    for rank, source in enumerate(inputs):
        it = iter(source)
        for value in it:
            if key is None:
                heap.append([value, rank * sign, it])
            else:
                heap.append([key(value), rank * sign, value, it])
            break
    for at in range(len(heap) // 2 - 1, -1, -1):
        _sink(heap, at, before)
    while len(heap) > 1:
        entry = heap[0]
        yield entry[0 if key is None else 2]
        try:
            value = next(entry[-1])
        except StopIteration:
            last = heap.pop()
            heap[0] = last
            _sink(heap, 0, before)
            continue
        if key is None:
            entry[0] = value
        else:
            entry[0] = key(value)
            entry[2] = value
        _sink(heap, 0, before)
    if heap:
        entry = heap[0]
        yield entry[0 if key is None else 2]
        for value in entry[-1]:
            yield value
