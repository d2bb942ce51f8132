# expect: exit=1 stderr="SyntaxError: 'yield' inside list comprehension"
def f(xs):
    return [(yield x) for x in xs]
