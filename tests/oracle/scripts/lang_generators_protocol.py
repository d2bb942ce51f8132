# The generator protocol: send, throw, close, yield from with delegation of send/throw/close and
# the sub-generator's return value, try/finally and with blocks inside generators.
def accumulate():
    total = 0
    while True:
        x = yield total
        if x is None:
            return total
        total += x


acc = accumulate()
print(acc.send(None), acc.send(2), acc.send(3))
try:
    acc.send(None)
except StopIteration as e:
    print("final", e.value)
fresh = accumulate()
try:
    fresh.send(1)
except TypeError as e:
    print("TypeError:", e)


def worker(name):
    got = []
    try:
        while True:
            try:
                x = yield len(got)
                got.append(x)
            except ValueError as e:
                print(name, "handled", e)
                got.append("error")
    finally:
        print(name, "cleans up with", got)


w = worker("w")
next(w)
print(w.send("a"), w.throw(ValueError("bad")), w.send("b"))
w.close()
w.close()
try:
    next(w)
except StopIteration:
    print("closed generators stop")

w2 = worker("w2")
next(w2)
try:
    w2.throw(KeyError("k"))
except KeyError as e:
    print("KeyError came out:", e)


def never_started():
    print("never printed")
    yield 1


ns = never_started()
ns.close()
print(list(ns))
ns2 = never_started()
try:
    ns2.throw(RuntimeError("thrown before start"))
except RuntimeError as e:
    print("RuntimeError:", e)
print(list(ns2))


def stubborn():
    ignored = 0
    while True:
        try:
            yield 1
        except GeneratorExit:
            ignored += 1
            print("ignoring GeneratorExit", ignored)
            if ignored == 2:
                return


s = stubborn()
next(s)
try:
    s.close()
except RuntimeError as e:
    print("RuntimeError:", e)
del s  # a suspended generator that is freed is closed: here it gives up
print("after del")


def sub(n):
    received = []
    for i in range(n):
        r = yield i
        received.append(r)
    return received


def delegator():
    result = yield from sub(3)
    print("sub returned", result)
    tail = yield from ["x", "y"]
    print("list gives", tail)
    return "done"


d = delegator()
print(next(d), d.send("s1"), d.send("s2"), d.send("s3"), next(d))
try:
    next(d)
except StopIteration as e:
    print("delegator returned", e.value)


def guarded():
    try:
        yield 1
        yield 2
    finally:
        print("inner finally")


def outer():
    try:
        yield from guarded()
    finally:
        print("outer finally")


o = outer()
print(next(o))
o.close()


def catcher():
    try:
        yield from guarded()
    except ZeroDivisionError as e:
        print("outer caught", type(e).__name__)
        yield "recovered"


c = catcher()
next(c)
print(c.throw(ZeroDivisionError))


class Resource:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        print("enter", self.name)
        return self

    def __exit__(self, *exc):
        print("exit", self.name, exc[0].__name__ if exc[0] else None)
        return False


def managed():
    with Resource("r"):
        yield "inside"
        yield "still inside"


m = managed()
print(next(m))
m.close()
print(list(managed()))


def raises_stop():
    yield 1
    raise StopIteration("inside")


try:
    list(raises_stop())
except RuntimeError as e:
    print("RuntimeError:", e, type(e.__cause__).__name__)


def self_resume():
    yield next(me)


me = self_resume()
try:
    next(me)
except ValueError as e:
    print("ValueError:", e)
