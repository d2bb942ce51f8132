# expect: exit=1 stderr="TypeError: called match pattern must be a type" stderr="line 15" stdout="caught: Point() accepts 0 positional sub-patterns (2 given)\n"
# Class patterns that cannot work: a TypeError with CPython's message and a traceback at the
# pattern's line, never an internal error.
class Point:
    pass


try:
    match Point():
        case Point(x, y):
            print("unreachable")
except TypeError as e:
    print("caught:", e)
match 3:
    case len():
        print("unreachable")
