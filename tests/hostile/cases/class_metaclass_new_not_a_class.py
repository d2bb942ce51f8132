# expect: exit=1 stderr="AttributeError: 'int' object has no attribute 'x'"
# A metaclass whose __new__ returns something that is not a class: the name is bound to that value.
class Odd(type):
    def __new__(mcs, name, bases, ns):
        return 42
class Model(metaclass=Odd):
    x = 1
print(Model)
print(Model.x)
