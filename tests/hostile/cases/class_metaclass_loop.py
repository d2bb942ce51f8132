# expect: exit=1 stderr="RecursionError: maximum recursion depth exceeded"
# A metaclass whose __call__ calls the class again: endless recursion, stopped cleanly.
class Loop(type):
    def __call__(cls, *args):
        return cls(*args)
class Model(metaclass=Loop):
    pass
Model()
