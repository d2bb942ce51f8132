# contextlib.ExitStack: enter_context, callback, push (an object's __exit__ or a plain callable),
# pop_all, close; callbacks run last-in first-out, see the pending exception, may suppress it or
# replace it; enter_context of something that is not a context manager.
from contextlib import ExitStack, contextmanager, suppress


class Resource:
    def __init__(self, name, swallow=False):
        self.name = name
        self.swallow = swallow

    def __enter__(self):
        print("open", self.name)
        return self.name

    def __exit__(self, exc_type, exc, tb):
        print("close", self.name, exc_type.__name__ if exc_type else None, exc)
        return self.swallow


with ExitStack() as stack:
    names = [stack.enter_context(Resource("r%d" % i)) for i in range(3)]
    print("entered", names)
    stack.callback(print, "callback", "with", "args", sep="-")
print("done")


def cleanup(what, n=1):
    print("cleanup", what, n)


with ExitStack() as stack:
    got = stack.callback(cleanup, "b", n=2)
    print(got is cleanup)
    stack.callback(cleanup, "a")
    stack.enter_context(Resource("file"))
    r = stack.push(Resource("pushed"))
    print(type(r).__name__)
    stack.push(lambda t, e, tb: print("plain exit", t))

try:
    with ExitStack() as stack:
        stack.enter_context(Resource("outer"))
        stack.enter_context(Resource("swallower", swallow=True))
        stack.enter_context(Resource("inner"))
        raise KeyError("lost")
    print("suppressed by the middle one")
except KeyError:
    print("not reached")


def raiser(t, e, tb):
    print("raiser sees", t.__name__ if t else None)
    raise ValueError("from a callback")


try:
    with ExitStack() as stack:
        stack.push(lambda t, e, tb: print("last sees", t.__name__ if t else None, e))
        stack.push(raiser)
        stack.push(lambda t, e, tb: print("first sees", t.__name__ if t else None, e))
        raise KeyError("body")
except Exception as e:
    print("came out:", type(e).__name__, e)

try:
    with ExitStack() as stack:
        stack.push(lambda t, e, tb: True)
        stack.push(raiser)
    print("the later callback suppressed the raiser's error")
except ValueError:
    print("not reached")

stack = ExitStack()
stack.callback(cleanup, "closed by close()")
stack.enter_context(Resource("manual"))
stack.close()
stack.close()
print("closed twice")


def open_all(names, fail_at=None):
    with ExitStack() as stack:
        handles = []
        for n in names:
            if n == fail_at:
                raise RuntimeError("cannot open " + n)
            handles.append(stack.enter_context(Resource(n)))
        keep = stack.pop_all()
    print("kept open", handles)
    return keep


keep = open_all(["x", "y"])
with keep:
    print("using")
try:
    open_all(["p", "q", "r"], fail_at="r")
except RuntimeError as e:
    print(e)

with ExitStack() as outer:
    inner = ExitStack()
    outer.enter_context(inner)
    inner.callback(cleanup, "inner stack")
    outer.callback(cleanup, "outer stack")


@contextmanager
def gen_cm(n):
    print("gen enter", n)
    yield n * 10
    print("gen exit", n)


with ExitStack() as stack:
    print([stack.enter_context(gen_cm(i)) for i in range(3)])
    stack.enter_context(suppress(ZeroDivisionError))
    1 / 0
print("after the zero division")

for bad in [5, object(), "text"]:
    try:
        ExitStack().enter_context(bad)
    except TypeError as e:
        print("TypeError", e)


class OnlyEnter:
    def __enter__(self):
        return self


try:
    ExitStack().enter_context(OnlyEnter())
except TypeError as e:
    print("TypeError", e)
print(ExitStack().__exit__(None, None, None), ExitStack().__enter__().__class__.__name__)
