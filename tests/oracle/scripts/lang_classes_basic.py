# covers: class definition, __init__, attributes, methods, class attributes, __repr__, __call__, __len__
import torch

torch.manual_seed(0)


class Point:
    dims = 2

    def __init__(self, x, y=0):
        self.x = x
        self.y = y

    def norm2(self):
        return self.x * self.x + self.y * self.y

    def shifted(self, dx, dy=0):
        return Point(self.x + dx, self.y + dy)

    def __repr__(self):
        return f"Point({self.x}, {self.y})"


class Accumulator:
    def __init__(self):
        self.items = []

    def __call__(self, v):
        self.items.append(v)
        return self

    def __len__(self):
        return len(self.items)

    def total(self):
        return sum(self.items)


p = Point(3, 4)
print(p, p.x, p.y, p.norm2())
q = p.shifted(1, dy=-1)
print(q, repr(q), str(q))
print(Point.dims, p.dims)
p.z = 10
print(p.z)
p.x = 7
print(p.norm2())
print([Point(i, i * i) for i in range(3)])

acc = Accumulator()
acc(1)(2)(3)
print(len(acc), acc.total(), acc.items)


class Config:
    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)

    def get(self, name, default=None):
        return getattr(self, name, default)


cfg = Config(lr=0.1, layers=3)
print(cfg.lr, cfg.layers, cfg.get("dropout"), cfg.get("dropout", 0.0), cfg.get("lr"))
print(hasattr(cfg, "lr"), hasattr(cfg, "momentum"))
print(type(p).__name__, type(cfg).__name__)
print(isinstance(p, Point), isinstance(cfg, Point))
