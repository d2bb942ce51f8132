# expect: exit=1 stderr="TypeError: Registry() takes no arguments"
# metaclass= a class that is not a type: Python calls it with (name, bases, namespace), and this one
# takes no arguments; the error says so, as python3 does.
class Registry:
    pass
class Model(metaclass=Registry):
    pass
