from . import square

PI = 3.25


def area(r):
    return PI * r * r


def twice_square(s):
    return 2 * square.area(s)
