# expect: exit=1 stderr="IndentationError: unindent does not match any outer indentation level"
def f():
        a = 1
    return a
