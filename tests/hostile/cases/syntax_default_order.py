# expect: exit=1 stderr="SyntaxError: non-default argument follows default argument"
def f(a=1, b):
    return a + b
