# expect: exit=1 stderr="TypeError: f() got an unexpected keyword argument 'c'"
def f(a, b=2):
    return a + b


f(1, c=3)
