from . import circle

FROM_CIRCLE = hasattr(circle, "PI")


def area(s):
    return s * s + 0 * circle.PI
