# A compiled function whose answer depends on the class of an object argument (isinstance, type,
# truth, ==, callable, hasattr, str, issubclass): a call with an object of another class must not
# replay the first class's graph. Fuselab guarded the class only when an attribute was read.
import torch


class A:
    def __bool__(self):
        return False

    def __eq__(self, other):
        return True

    def __len__(self):
        return 3

    def __call__(self):
        return 1

    def __add__(self, o):
        return 10

    def __str__(self):
        return "a"

    def __hash__(self):
        return 1


class B:
    pass


@torch.compile
def t_isinstance(x, op):
    return x + 1 if isinstance(op, A) else x - 1


@torch.compile
def t_type(x, op):
    return x + 1 if type(op) is A else x - 1


@torch.compile
def t_class(x, op):
    return x + 1 if op.__class__ is A else x - 1


@torch.compile
def t_bool(x, op):
    return x + 1 if op else x - 1


@torch.compile
def t_eq(x, op):
    return x + 1 if op == 5 else x - 1


@torch.compile
def t_callable(x, op):
    return x + 1 if callable(op) else x - 1


@torch.compile
def t_hasattr(x, op):
    return x + 1 if hasattr(op, "__len__") else x - 1


@torch.compile
def t_str(x, op):
    return x + 1 if str(op) == "a" else x - 1


@torch.compile
def t_issub(x, op):
    return x + 1 if issubclass(type(op), A) else x - 1


x = torch.tensor([1.0])
for f in [t_isinstance, t_type, t_class, t_bool, t_eq, t_callable, t_hasattr, t_str, t_issub]:
    print(f.__name__ if hasattr(f, "__name__") else "f", f(x, A()).item(), f(x, B()).item(), f(x, A()).item())
