# contextlib's small context managers: nullcontext (with enter_result), suppress (one or several
# exception types, subclasses, nothing suppressed when empty), closing, AbstractContextManager
# (the abstract __exit__, the default __enter__) and a ContextDecorator subclass.
import contextlib
from contextlib import AbstractContextManager, ContextDecorator, closing, nullcontext, suppress

with nullcontext() as x:
    print("nullcontext gives", x)
with nullcontext(42) as x:
    print("enter_result", x)
lock = None
with lock if lock is not None else nullcontext("no lock") as held:
    print(held)
cm = nullcontext([1, 2])
with cm as a, cm as b:
    print(a is b, a)

for exc in [KeyError("k"), IndexError("i"), ZeroDivisionError("z")]:
    try:
        with suppress(KeyError, IndexError):
            raise exc
        print("suppressed", type(exc).__name__)
    except Exception as e:
        print("not suppressed", type(e).__name__)
with suppress(LookupError):
    {}["missing"]
print("LookupError covers KeyError")
with suppress(Exception):
    int("x")
print("after int('x')")
try:
    with suppress():
        raise ValueError("v")
except ValueError as e:
    print("empty suppress", e)
s = suppress(OSError)
print(s.__exit__(None, None, None), s.__exit__(FileNotFoundError, FileNotFoundError(), None), s.__exit__(ValueError, ValueError(), None))


def first_even(values):
    for v in values:
        with suppress(ValueError):
            if int(v) % 2 == 0:
                return int(v)
    return None


print(first_even(["a", "3", "x", "8", "10"]))


class Conn:
    def __init__(self, name):
        self.name = name
        self.closed = False

    def close(self):
        self.closed = True
        print("closing", self.name)


with closing(Conn("db")) as c:
    print("using", c.name, c.closed)
print("closed?", c.closed)
try:
    with closing(Conn("net")) as c:
        raise RuntimeError("fail inside")
except RuntimeError as e:
    print(e, c.closed)


class Timer(AbstractContextManager):
    def __exit__(self, exc_type, exc, tb):
        print("Timer exit", exc_type)


with Timer() as t:
    print("Timer enter gives itself:", type(t).__name__)


class Incomplete(AbstractContextManager):
    pass


try:
    Incomplete()
except TypeError as e:
    print("TypeError", e)


class Logged(ContextDecorator):
    def __init__(self, label):
        self.label = label

    def __enter__(self):
        print("begin", self.label)
        return self

    def __exit__(self, *exc):
        print("end", self.label, exc[0].__name__ if exc[0] else None)
        return False


@Logged("decorated")
def work(a, b=2):
    """Adds."""
    print("work", a, b)
    return a + b


print(work(1), work(3, b=4), work.__name__, work.__doc__)
with Logged("as a with statement"):
    print("body")


@Logged("failing")
def fails():
    raise KeyError("k")


try:
    fails()
except KeyError as e:
    print("KeyError", e)
print(isinstance(nullcontext(), AbstractContextManager), isinstance(suppress(), AbstractContextManager),
      isinstance(closing(None), AbstractContextManager), isinstance(contextlib.ExitStack(), AbstractContextManager))
print(callable(contextlib.redirect_stdout), callable(contextlib.redirect_stderr))
