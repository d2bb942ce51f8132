# expect: exit=1 stderr="TypeError: f() missing 1 required positional argument: 'b'"
def f(a, b):
    return a + b


f(1)
