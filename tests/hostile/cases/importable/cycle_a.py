from .cycle_b import g


def f():
    return g() + 1
