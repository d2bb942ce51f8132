# expect: exit=1 stderr="RecursionError: maximum recursion depth exceeded" stdout="start\n"
# A generator that delegates to itself forever: each level is a suspended generator with a stack
# of its own; the recursion limit ends it, never a crash.
def g():
    yield from g()
print("start")
next(g())
