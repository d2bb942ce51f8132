import numbers
print(isinstance(3, numbers.Integral), isinstance(3, numbers.Real), isinstance(3.5, numbers.Integral), isinstance(3.5, numbers.Real), isinstance(True, numbers.Number), isinstance("3", numbers.Number), isinstance(3.5, numbers.Complex))
print(issubclass(int, numbers.Integral), issubclass(float, numbers.Rational), numbers.Number, numbers.Integral.__mro__ if False else '')
class My(numbers.Real):
    pass
print(issubclass(My, numbers.Complex))
