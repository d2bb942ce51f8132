# covers: literals and repr/str of ints, floats, strings, lists, tuples, dicts, sets of small ints, None, bools, nesting
import torch

torch.manual_seed(0)
print(1, -0, 10 ** 12, 0x1F, 0o17, 0b101, 1_000_000)
print(1.0, -2.5, 1e3, 1.5e-7, 3.14159, 2.0 ** 60, 123456789.123)
print("plain", 'single', "with 'quote'", 'with "dq"', "tab\tend", "uni: é")
print(repr("plain"), repr("it's"), repr('say "hi"'), repr("both ' and \""), repr("a\nb"), repr("\\"))
print([1, "a", 2.0, None, True], (1,), (), (1, "b"), [])
print({"a": 1, "b": [1, 2], 3: "x", (1, 2): None})
print({1, 2, 3}, {5}, set(), {0, 1, 2, 3, 4})
print(None, True, False, repr(None), repr(True))
print([[1, [2, [3]]], {"k": (4, 5)}])
print(str(3), str(3.0), str([1, 2]), str((1,)), str({"x": 1.5}))
print(repr(1.0), repr(0.5), repr(-0.0), repr(1e16), repr(1e-5), repr(123.0))
print([0.1, 0.25, 1 / 3], (0.1 + 0.2,), {"v": 2 / 3})
print(len("héllo"), "abc" * 2, [0] * 3, (1, 2) * 2, [1] + [2])
print(type(1).__name__, type(1.0).__name__, type("").__name__, type([]).__name__,
      type(()).__name__, type({}).__name__, type(set()).__name__, type(None).__name__, type(True).__name__)
print(repr([1.5, "s", None]), repr((True,)), repr({"a": "b"}))
print("multi" "part" " string")
print("""triple
quoted""")
