# contextlib, written in the script language: contextmanager (a generator as a context manager,
# usable as a decorator too), nullcontext, suppress, closing, ExitStack, AbstractContextManager
# and ContextDecorator, as CPython 3.11's module behaves. redirect_stdout / redirect_stderr /
# chdir are refused: a model script may not redirect its streams or change its folder. There is
# no async variant (the interpreter has no async).
from functools import wraps as _wraps

_NO_YIELD = "generator didn't yield"
_NO_STOP = "generator didn't stop"
_NO_STOP_AFTER_THROW = "generator didn't stop after throw()"


class AbstractContextManager:
    # A subclass must define __exit__; __enter__ gives the object itself.

    def __new__(cls, *args, **kwargs):
        if getattr(cls.__exit__, "__isabstractmethod__", False):
            raise TypeError("Can't instantiate abstract class %s with abstract method __exit__" % cls.__name__)
        return object.__new__(cls)

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        return None

    __exit__.__isabstractmethod__ = True


_ACM = AbstractContextManager  # the base of every manager below


class ContextDecorator:
    # Lets a context manager decorate a function: each call of the function runs inside it.

    def _recreate_cm(self):
        return self

    def __call__(self, func):
        @_wraps(func)
        def run_inside(*args, **kwds):
            with self._recreate_cm():
                return func(*args, **kwds)

        return run_inside


class _GeneratorContextManager(ContextDecorator, _ACM):
    # What a @contextmanager function returns: the generator runs up to its yield on entry and
    # on from there on exit; an exception from the with block is raised inside the generator at
    # the yield.

    def __init__(self, fn, args, kwargs):
        self.gen = fn(*args, **kwargs)
        self.func = fn
        self.args = args
        self.kwds = kwargs
        self.__doc__ = getattr(fn, "__doc__", None)

    def _recreate_cm(self):
        # as a decorator, every call gets a fresh generator
        return type(self)(self.func, self.args, self.kwds)

    def __enter__(self):
        # a generator runs once: what it was made from is forgotten here
        del self.func
        del self.args
        del self.kwds
        try:
            return next(self.gen)
        except StopIteration:
            raise RuntimeError(_NO_YIELD) from None

    def __exit__(self, kind, value, tb):
        if kind is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            raise RuntimeError(_NO_STOP)
        if value is None:
            value = kind()
        try:
            self.gen.throw(value)
        except StopIteration as stop:
            # the generator caught the exception and ended: it is suppressed, unless the with
            # block's exception was this very StopIteration
            return stop is not value
        except RuntimeError as err:
            if err is value:
                return False
            # a StopIteration from the block, turned into RuntimeError by the generator
            if isinstance(value, StopIteration) and getattr(err, "__cause__", None) is value:
                return False
            raise
        except BaseException as err:
            # the same exception coming back out means "not handled": the with statement
            # re-raises it; another one replaces it
            if err is not value:
                raise
            return False
        raise RuntimeError(_NO_STOP_AFTER_THROW)


def contextmanager(func):
    @_wraps(func)
    def make_cm(*args, **kwargs):
        return _GeneratorContextManager(func, args, kwargs)

    return make_cm


class closing(_ACM):
    def __init__(self, thing):
        self.thing = thing

    def __enter__(self):
        return self.thing

    def __exit__(self, *exc_info):
        self.thing.close()


class nullcontext(_ACM):
    def __init__(self,
                 enter_result=None):
        self._result = enter_result

    def __enter__(self):
        return self._result

    def __exit__(self, *excinfo):
        pass


class suppress(_ACM):
    def __init__(self, *kinds):
        self._kinds = kinds

    def __enter__(self):
        pass

    def __exit__(self, kind, exc, tb):
        # true (suppressed) for an exception of one of the kinds given
        return kind is not None and issubclass(kind, self._kinds)


class ExitStack(_ACM):
    # Exit callbacks in a list, run last-registered first. Each sees the exception still
    # pending (the with block's, or one an earlier callback raised), and a callback that
    # returns true suppresses it.

    def __init__(self):
        self._exit_callbacks = []

    def pop_all(self):
        # moves every callback to a new stack: this one is left empty
        moved = type(self)()
        moved._exit_callbacks = self._exit_callbacks
        self._exit_callbacks = []
        return moved

    def _add(self, cb):
        self._exit_callbacks.append(cb)

    def _add_cm_exit(self, cm, exit_fn):
        def call_exit(exc_type, exc, tb):
            return exit_fn(cm, exc_type, exc, tb)

        call_exit.__self__ = cm
        self._add(call_exit)

    def push(self, exit):
        # an object with __exit__ (its __exit__ is pushed) or a callable taking
        # (exc_type, exc, traceback)
        exit_fn = getattr(type(exit), "__exit__", None)
        if exit_fn is None:
            self._add(exit)
        else:
            self._add_cm_exit(exit, exit_fn)
        return exit

    def enter_context(self, cm):
        kind = type(cm)
        enter_fn = getattr(kind, "__enter__", None)
        exit_fn = getattr(kind, "__exit__", None)
        if enter_fn is None or exit_fn is None:
            raise TypeError("'%s.%s' object does not support the context manager protocol" % (kind.__module__, kind.__qualname__))
        result = enter_fn(cm)
        self._add_cm_exit(cm, exit_fn)
        return result

    def callback(self, callback, *args, **kwds):
        def call_back(exc_type, exc, tb):
            callback(*args, **kwds)

        call_back.__wrapped__ = callback
        self._add(call_back)
        return callback

    def close(self):
        self._unwind((None, None, None))

    def __enter__(self):
        return self

    def __exit__(self, *details):
        return self._unwind(details)

    def _unwind(self, details):
        had_exception = details[0] is not None
        suppressed = False
        must_raise = False
        current = details
        while self._exit_callbacks:
            exit_cb = self._exit_callbacks.pop()
            try:
                if exit_cb(*current):
                    suppressed = True
                    must_raise = False
                    current = (None, None, None)
            except BaseException as raised:
                current = (type(raised), raised, None)
                must_raise = True
        if must_raise:
            raise current[1]
        return had_exception and suppressed


_REFUSED = "contextlib.%s is not available in model scripts: %s"


def redirect_stdout(new_target):
    raise AttributeError(_REFUSED % ("redirect_stdout", "a model script cannot redirect sys.stdout (its output is what Fuselab compares and shows)"))


def redirect_stderr(new_target):
    raise AttributeError(_REFUSED % ("redirect_stderr", "a model script cannot redirect sys.stderr"))


def chdir(path):
    raise AttributeError(_REFUSED % ("chdir", "a model script cannot change its working folder or touch files"))
