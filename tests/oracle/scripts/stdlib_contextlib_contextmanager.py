# contextlib.contextmanager: setup/teardown around the yield, the yielded value, exceptions from
# the with block raised inside the generator (handled, re-raised, replaced, suppressed), the
# RuntimeError messages, a @contextmanager object as a decorator, and functools.wraps metadata.
import contextlib
from contextlib import contextmanager


@contextmanager
def tag(name):
    """Wrap output in a tag."""
    print("<%s>" % name)
    yield name.upper()
    print("</%s>" % name)


with tag("p") as t:
    print("inside", t)
print(tag.__name__, tag.__doc__, tag.__wrapped__.__name__)
with tag("div"), tag("span") as inner:
    print("nested", inner)


@contextmanager
def guarded(label, swallow=()):
    print("enter", label)
    try:
        yield label
    except swallow as e:
        print("handled", type(e).__name__, e)
    finally:
        print("leave", label)


with guarded("a", (KeyError,)):
    raise KeyError("missing")
print("after a")
try:
    with guarded("b", (KeyError,)):
        raise ValueError("bad value")
except ValueError as e:
    print("propagated", e)


@contextmanager
def translate():
    try:
        yield
    except ZeroDivisionError as e:
        raise ArithmeticError("translated: %s" % e)


try:
    with translate():
        1 / 0
except ArithmeticError as e:
    print(type(e).__name__, e)


@contextmanager
def reraise():
    try:
        yield
    except IndexError:
        print("seen, re-raised")
        raise


try:
    with reraise():
        [][1]
except IndexError as e:
    print("IndexError", e)


@contextmanager
def no_yield():
    if False:
        yield


@contextmanager
def two_yields():
    yield 1
    yield 2


@contextmanager
def yields_again():
    try:
        yield
    except ValueError:
        yield


for cm, body_raises in [(no_yield, False), (two_yields, False), (yields_again, True)]:
    try:
        with cm():
            if body_raises:
                raise ValueError("x")
    except RuntimeError as e:
        print(cm.__name__, "RuntimeError", e)


@contextmanager
def quiet():
    yield


try:
    with quiet():
        raise StopIteration("from the body")
except StopIteration as e:
    print("StopIteration kept:", e)

once = tag("once")
with once:
    pass
try:
    with once:
        pass
except AttributeError as e:
    print("reuse:", type(e).__name__)

calls = []


@contextmanager
def timed(name):
    calls.append("start " + name)
    yield
    calls.append("stop " + name)


@timed("step")
def train_step(x):
    calls.append("run %d" % x)
    return x * 2


print(train_step(3), train_step(4), train_step.__name__)
print(calls)


@contextmanager
def counter():
    state = {"n": 0}
    yield state
    print("final count", state["n"])


with counter() as st:
    for _ in range(5):
        st["n"] += 1


def use_value():
    with tag("ret") as v:
        return v + "!"


print(use_value())
for i in range(3):
    with guarded("loop%d" % i):
        if i == 1:
            continue
        print("body", i)
