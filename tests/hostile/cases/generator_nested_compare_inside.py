# expect: exit=0 stdout="RecursionError\nRecursionError\n"
# Natively recursive work (comparing, hashing deeply nested containers) inside a generator's small
# stack: a RecursionError, never a stack overflow.
a = []
b = []
for i in range(200000):
    a = [a]
    b = [b]
t = ()
for i in range(200000):
    t = (t,)
def g():
    try:
        yield a == b
    except RecursionError:
        yield "RecursionError"
    try:
        yield hash(t)
    except RecursionError:
        yield "RecursionError"
for v in g():
    print(v)
