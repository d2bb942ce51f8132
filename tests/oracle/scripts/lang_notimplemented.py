# covers: NotImplemented as its own singleton, binary operators trying the reflected method when
# the left operand's returns NotImplemented, comparisons falling back to the reflected comparison
# and then to identity, and CPython's TypeErrors when both operands decline
print(NotImplemented, repr(NotImplemented), NotImplemented is NotImplemented, NotImplemented is None)
print(type(NotImplemented).__name__, NotImplemented == NotImplemented, str(NotImplemented))


class A:
    def __init__(self, v):
        self.v = v

    def __add__(self, other):
        if isinstance(other, A):
            return A(self.v + other.v)
        return NotImplemented

    def __mul__(self, other):
        return NotImplemented

    def __repr__(self):
        return "A(%r)" % self.v


class B:
    def __init__(self, v):
        self.v = v

    def __radd__(self, other):
        if isinstance(other, A):
            return B(other.v * 10 + self.v)
        return NotImplemented

    def __rsub__(self, other):
        return "B.__rsub__(%r)" % (other,)

    def __repr__(self):
        return "B(%r)" % self.v


print(A(1) + A(2))
print(A(1) + B(2))
print(5 - B(1), [1] - B(2) if False else "skip")
cases = [("A(1) + 3", lambda: A(1) + 3), ("3 + A(1)", lambda: 3 + A(1)), ("A(1) * B(2)", lambda: A(1) * B(2)),
         ("B(1) + B(2)", lambda: B(1) + B(2)), ("A(1) - A(2)", lambda: A(1) - A(2)), ("B(1) + A(1)", lambda: B(1) + A(1)),
         ("A(1) @ 2", lambda: A(1) @ 2), ("A(1) ** 2", lambda: A(1) ** 2), ("'s' + A(1)", lambda: "s" + A(1))]
for text, fn in cases:
    try:
        print(text, "=", fn())
    except TypeError as e:
        print(text, "TypeError:", e)


class Money:
    def __init__(self, cents):
        self.cents = cents

    def __eq__(self, other):
        if isinstance(other, Money):
            return self.cents == other.cents
        return NotImplemented

    def __lt__(self, other):
        if isinstance(other, Money):
            return self.cents < other.cents
        return NotImplemented

    __hash__ = None


m1, m2 = Money(5), Money(5)
print(m1 == m2, m1 != m2, m1 == 5, m1 != 5, 5 == m1, m1 == m1, m1 < Money(7), Money(9) > m1)
try:
    m1 < 3
except TypeError as e:
    print("TypeError:", e)
try:
    3 >= m1
except TypeError as e:
    print("TypeError:", e)


class Always:
    def __eq__(self, other):
        return "always-eq"

    def __ne__(self, other):
        return NotImplemented


print(1 == Always(), Always() == 1, "x" != Always())


class Scalar:
    def __init__(self, v):
        self.v = v

    def __rmul__(self, other):
        return Scalar(other * self.v)

    def __iadd__(self, other):
        return NotImplemented

    def __add__(self, other):
        return Scalar(self.v + other)

    def __gt__(self, other):
        return NotImplemented

    def __lt__(self, other):
        return "Scalar.__lt__(%r)" % (other,)


s = Scalar(2)
print((3 * s).v, (2.5 * s).v)
s += 4
print(s.v)
print(1 > Scalar(0))
try:
    Scalar(1) > 2
except TypeError as e:
    print("TypeError:", e)


class Sub(A):
    def __radd__(self, other):
        return "Sub.__radd__ first"


print(A(1) + Sub(2))
print(sorted([Money(3), Money(1), Money(2)], key=lambda m: m.cents)[0].cents)
print([NotImplemented], {"k": NotImplemented}, bool(Money(1) == "x"))

import types

print(types.NotImplementedType, isinstance(NotImplemented, types.NotImplementedType), type(NotImplemented)() is NotImplemented)
print(Ellipsis, Ellipsis is ..., type(Ellipsis).__name__)
