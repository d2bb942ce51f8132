# expect: exit=0 stdout="900\nRecursionError\n"
# Deep recursion inside a generator body: the generator's small stack grows by segments, so the
# recursion limit (not the stack) decides, as in Python.
def deep(n):
    return 0 if n == 0 else deep(n - 1) + 1
def g(n):
    yield deep(n)
print(next(g(900)))
try:
    next(g(5000))
except RecursionError:
    print("RecursionError")
