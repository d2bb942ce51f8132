import enum
from enum import Enum, IntEnum, Flag, IntFlag, auto, unique
class Color(Enum):
    RED = 1
    GREEN = 2
    CRIMSON = 1
print(repr(Color.RED), str(Color.RED), f"{Color.RED}", Color.CRIMSON is Color.RED, list(Color), len(Color))
print(Color.__members__)
print(repr(Color), type(Color), Color(2), Color['GREEN'])
for bad in [lambda: Color(5), lambda: Color['X'], lambda: 1 in Color, lambda: setattr(Color, 'RED', 3), lambda: Color.RED < Color.GREEN]:
    try: bad()
    except Exception as e: print(type(e).__name__, e)
try:
    @unique
    class U(Enum):
        A = 1
        B = 1
except ValueError as e: print(e)
try:
    class Shade(Color): pass
except TypeError as e: print(e)
class P(IntEnum):
    LOW = auto()
    HIGH = auto()
print(repr(P.HIGH), str(P.HIGH), f"{P.HIGH}", P.HIGH + 1, P.HIGH == 2, [0,1,2,3][P.HIGH], P.LOW < P.HIGH, hash(P.HIGH) == hash(2), int(P.HIGH))
class Perm(Flag):
    R = auto()
    W = auto()
    X = auto()
rw = Perm.R | Perm.W
print(repr(rw), str(rw), Perm.R in rw, Perm.X in rw, repr(~Perm.R), repr(Perm(0)), str(Perm(0)), bool(Perm(0)), list(rw), repr(Perm.R & Perm.W))
class Pi(IntFlag):
    A = 1
    B = 2
print(repr(Pi.A | Pi.B), str(Pi.A | Pi.B), Pi.A | 4, repr(Pi.A|4))
F = Enum('F', 'X Y Z')
print(list(F), F.Y.value, repr(F))
G = Enum('G', [('A', 10), ('B', 20)])
print(list(G))
class Planet(Enum):
    EARTH = (5.97e24, 6.37e6)
    MARS = (6.42e23, 3.39e6)
    def __init__(self, mass, radius):
        self.mass = mass
        self.radius = radius
    @property
    def g(self):
        return 6.67e-11 * self.mass / self.radius ** 2
    def describe(self):
        return "%s %.2f" % (self.name, self.g)
print(Planet.EARTH.describe(), Planet.MARS.value, Planet.EARTH.mass)
print(hash(Color.RED) == hash("RED"), Color.RED.name, Color.RED.value, Color.RED._name_)
class Auto(Enum):
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()
    A = auto()
    B = auto()
print(list(Auto), Auto.A.value)
print(type(Color.RED), isinstance(Color.RED, Color), Color.RED.__class__.__name__, Color.__name__)
d = {Color.RED: 'r'}; print(d[Color.RED], d)
print(Color._member_names_, Color(Color.RED))
class M(Enum):
    A = 1
    @classmethod
    def _missing_(cls, v):
        return cls.A
print(M(99))
