# expect: exit=1 stderr="TypeError: class Model: metaclasses are not supported in model scripts"
# A metaclass other than type (or abc's ABCMeta) is refused, never silently ignored.
class Registry:
    pass
class Model(metaclass=Registry):
    pass
