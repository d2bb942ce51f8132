# covers: class patterns used in model code: config objects with defaults, class-level constants, plain factory functions, __eq__/__add__/__mul__ operators, __getitem__/__len__ datasets
import torch

torch.manual_seed(0)


class Config:
    vocab_size = 100
    n_layer = 2

    def __init__(self, n_embd=32, dropout=0.1, **overrides):
        self.n_embd = n_embd
        self.dropout = dropout
        for k, v in overrides.items():
            setattr(self, k, v)

    def describe(self, n):
        return f"{n} layers"

    def head_dim(self):
        return self.n_embd // 4

    def __repr__(self):
        return f"Config(n_embd={self.n_embd}, dropout={self.dropout}, n_layer={self.n_layer})"


class Dataset:
    def __init__(self, n):
        self.items = [(i, i * i) for i in range(n)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    def __eq__(self, o):
        return self.x == o.x and self.y == o.y

    def __repr__(self):
        return f"Vec({self.x}, {self.y})"


c = Config()
s = Config(n_embd=16, n_layer=1)
print(c, s, Config.vocab_size, c.vocab_size, s.n_layer, Config.n_layer)
print(c.head_dim(), s.head_dim(), s.describe(3), c.describe(4))
print(Config(dropout=0.0, bias=False).bias)
ds = Dataset(5)
print(len(ds), ds[2], ds[-1], [ds[i][1] for i in range(len(ds))])
print(Vec(1, 2) + Vec(3, 4), Vec(1, 2) * 3, Vec(1, 1) == Vec(1, 1), Vec(1, 1) == Vec(1, 2), Vec(2, 0) != Vec(2, 0))
