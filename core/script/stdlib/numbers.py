# numbers, written in the script language: the numeric tower Number > Complex > Real > Rational >
# Integral as abstract classes. isinstance / issubclass answer for the interpreter's bool, int
# and float as CPython's registrations make them answer (float is Real, not Rational), and for
# script classes by their bases.
from abc import abstractmethod


class _Tower(type):
    # The builtin types each level of the tower accepts.
    def __instancecheck__(cls, obj):
        return cls.__subclasscheck__(type(obj))

    def __subclasscheck__(cls, sub):
        if sub in cls._builtin_members:
            return True
        return cls in getattr(sub, "__mro__", ())


class Number(metaclass=_Tower):
    _builtin_members = (bool, int, float)
    __hash__ = None


class Complex(Number):
    _builtin_members = (bool, int, float)

    @abstractmethod
    def __complex__(self):
        pass


class Real(Complex):
    _builtin_members = (bool, int, float)

    @abstractmethod
    def __float__(self):
        pass


class Rational(Real):
    _builtin_members = (bool, int)

    @property
    @abstractmethod
    def numerator(self):
        pass


class Integral(Rational):
    _builtin_members = (bool, int)

    @abstractmethod
    def __int__(self):
        pass
