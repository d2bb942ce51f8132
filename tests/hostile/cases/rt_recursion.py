# expect: exit=1 stderr="RecursionError: maximum recursion depth exceeded"
def f(n):
    return f(n + 1) + 1


print(f(0))
