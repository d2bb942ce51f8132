from .cycle_a import f


def g():
    return f() * 2
