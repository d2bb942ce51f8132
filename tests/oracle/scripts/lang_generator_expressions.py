# Generator expressions are lazy: the first iterable is evaluated at once, everything else as
# values are asked for; exhaustion, reuse and side effects in order.
log = []


def noisy(x):
    log.append(x)
    return x * x


g = (noisy(x) for x in range(5))
print(type(g).__name__, log)
print(next(g), log)
print(next(g), next(g), log)
print(list(g), log)
print(list(g))


def source():
    print("source called")
    return [1, 2, 3]


lazy = (x + 1 for x in source())
print("created")
print(sum(lazy))
pairs = ((a, b) for a in range(3) for b in "ab" if a != 1)
print(list(pairs))
print(sum(x * x for x in range(10)), max((len(w), w) for w in ["aa", "b", "ccc"]))
print(", ".join(str(i) for i in range(4)), sorted(c for c in "hello"))
print(any(x > 2 for x in [1, 2, 3]), all(x > 0 for x in []), min(abs(v) for v in (-3, 2)))
first_big = next(x for x in range(10**12) if x * x > 50)
print(first_big)
k = 10
scaled = (v * k for v in range(3))
k = 100
print(list(scaled))
nested = list(list(j for j in range(i)) for i in range(4))
print(nested)
print(dict((s, len(s)) for s in ["ab", "cde"]), set(x % 3 for x in range(10)))
it = (c.upper() for c in "xyz")
print(iter(it) is it, next(it), [*it])
