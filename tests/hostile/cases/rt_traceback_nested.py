# expect: exit=1 stderr="Traceback (most recent call last):" stderr="ZeroDivisionError: division by zero" stderr_re="(?s)line 10, in <module>.*line 7, in outer.*line 3, in inner.*ZeroDivisionError"
def inner(v):
    return v / 0


def outer(v):
    return inner(v) + 1


print(outer(3))
