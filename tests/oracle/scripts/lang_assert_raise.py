# covers: assert with and without message, raise inside functions, bare re-raise, raise ... from, exception args and str()
import torch

torch.manual_seed(0)


def check(v):
    assert v > 0, f"value must be positive, got {v}"
    return v


try:
    check(-2)
except AssertionError as e:
    print("AssertionError:", e)
try:
    assert 1 == 2
except AssertionError as e:
    print("bare assert:", repr(str(e)))


def reraise():
    try:
        raise ValueError("inner")
    except ValueError:
        print("handling, then re-raising")
        raise


try:
    reraise()
except ValueError as e:
    print("outer got:", e)


def parse(v):
    try:
        return int(v)
    except ValueError as e:
        raise RuntimeError(f"bad value {v!r}") from e


try:
    parse("abc")
except RuntimeError as e:
    print("RuntimeError:", e, "| cause:", type(e.__cause__).__name__)
x = torch.ones(3)
assert x.shape == (3,), "shape check"
assert x.sum().item() == 3.0
print("asserts on tensors passed")
for v in [1, -1]:
    try:
        assert v > 0, v
        print("ok", v)
    except AssertionError as e:
        print("failed with", e, e.args)
