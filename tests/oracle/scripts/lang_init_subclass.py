# __init_subclass__ and class keywords: registries of subclasses, keyword arguments after the bases,
# classmethod and plain forms, the nearest base's hook, super() chains, errors.
import abc

registry = {}


class Plugin:
    def __init_subclass__(cls, name=None, **kwargs):
        super().__init_subclass__(**kwargs)
        registry[name or cls.__name__.lower()] = cls
        print("registered", cls.__name__, "as", name or cls.__name__.lower())


class Relu(Plugin, name="relu"):
    pass


class Gelu(Plugin):
    pass


class FastGelu(Gelu, name="fast_gelu"):
    pass


print(sorted(registry), registry["fast_gelu"].__name__)


class Counted:
    count = 0

    @classmethod
    def __init_subclass__(cls, step=1):
        Counted.count += step
        cls.index = Counted.count


class A(Counted):
    pass


class B(Counted, step=10):
    pass


print(Counted.count, A.index, B.index)


class Mixin:
    def __init_subclass__(cls, **kwargs):
        print("Mixin sees", cls.__name__, sorted(kwargs))
        super().__init_subclass__()


class Both(Mixin, Plugin, tag=1):
    pass


try:
    class Bad(tag=2):
        pass
except TypeError as e:
    print("TypeError:", e)


class Base(metaclass=abc.ABCMeta):
    pass


class Plain(metaclass=type):
    pass


print(Base.__name__, Plain.__name__)
opts = {"name": "from_dict"}


class FromDict(Plugin, **opts):
    pass


print(sorted(registry))
