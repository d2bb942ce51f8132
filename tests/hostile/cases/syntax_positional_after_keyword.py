# expect: exit=1 stderr="SyntaxError: positional argument follows keyword argument"
def f(a, b):
    return a
f(a=1, 2)
