# expect: exit=1 stderr="RecursionError"
f = lambda n: f(n + 1)
f(0)
