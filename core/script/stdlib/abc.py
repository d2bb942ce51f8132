# abc, written in the script language: ABC, ABCMeta (as a marker), abstractmethod and
# abstractproperty. A class that leaves an abstract method unimplemented cannot be instantiated,
# with CPython 3.11's message.


def abstractmethod(funcobj):
    funcobj.__isabstractmethod__ = True
    return funcobj


def abstractproperty(fget):
    return property(abstractmethod(fget))


class ABCMeta:
    pass


def _abstract_names(cls):
    names = []
    for name in _names(cls):
        if name.startswith("__") and name.endswith("__"):
            continue
        value = getattr(cls, name, None)
        if getattr(value, "__isabstractmethod__", False):
            names.append(name)
    return sorted(names)


class ABC:
    def __new__(cls, *args, **kwargs):
        names = _abstract_names(cls)
        if names:
            raise TypeError("Can't instantiate abstract class %s with abstract method%s %s"
                            % (cls.__name__, "" if len(names) == 1 else "s", ", ".join(names)))
        return object.__new__(cls)
