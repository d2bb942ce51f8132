# covers (extras beyond the required list): ints wider than 64 bits, classmethod/staticmethod/property, unbound builtin methods as keys, dict.fromkeys, SystemExit.code
import torch

torch.manual_seed(0)
print(2 ** 63 - 1, -(2 ** 63), 2 ** 64, 2 ** 100, -2 ** 63 // 2, int(1e20), 10 ** 30 // 7)
print(sorted(["b", "A", "c"], key=str.lower), list(map(str.upper, ["x", "y"])), dict.fromkeys(["a", "b"], 0))


class Config:
    n_layer = 2

    def __init__(self, n_embd=32):
        self.n_embd = n_embd

    @classmethod
    def small(cls):
        return cls(n_embd=16)

    @staticmethod
    def describe(n):
        return f"{n} layers"

    @property
    def head_dim(self):
        return self.n_embd // 4


s = Config.small()
print(s.n_embd, s.head_dim, Config.describe(3), s.describe(4), type(s).__name__)
try:
    raise SystemExit(4)
except SystemExit as e:
    print("caught SystemExit with code", e.code)
