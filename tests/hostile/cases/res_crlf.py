# expect: exit=0 stdout="crlf ok 6\n"
def f(a,
      b=2):
    if a:
        return a * b
    return 0

print("crlf ok", f(3))
