# types.SimpleNamespace (keyword construction, repr in the order attributes were set, nested and
# self-containing namespaces, equality, set / delete attributes, vars, a subclass, unhashable)
# and types.MappingProxyType (a read-only live view: lookups, views, |, the errors).
import types
from types import MappingProxyType, SimpleNamespace

cfg = SimpleNamespace(lr=3e-4, layers=[64, 64], name="mlp", dropout=None)
print(cfg)
print(cfg.lr, cfg.layers, cfg.name, cfg.dropout)
cfg.epochs = 10
cfg.lr = 1e-3
del cfg.dropout
print(repr(cfg), str(cfg))
print(vars(cfg), cfg.__dict__ is vars(cfg), sorted(vars(cfg)))
print(getattr(cfg, "missing", "default"), hasattr(cfg, "epochs"), hasattr(cfg, "dropout"))
setattr(cfg, "with space", 1)
print(cfg)
print(SimpleNamespace(), SimpleNamespace(**{"b": 2, "a": 1}))
print(SimpleNamespace(model=SimpleNamespace(dim=8, heads=2), train=SimpleNamespace(steps=100)))
loop = SimpleNamespace(name="loop")
loop.me = loop
print(loop)
a = SimpleNamespace(x=1, y=[1, 2])
b = SimpleNamespace(y=[1, 2], x=1)
print(a == b, a != b, a == SimpleNamespace(x=1), a == {"x": 1, "y": [1, 2]}, a == a)
b.y.append(3)
print(a == b, a != b)
print(type(cfg), type(cfg).__name__, isinstance(cfg, SimpleNamespace), isinstance(cfg, types.SimpleNamespace))


class Config(SimpleNamespace):
    def total(self):
        return sum(v for v in vars(self).values() if isinstance(v, int))


c = Config(a=1, b=2, c="x")
print(c, c.total(), c == SimpleNamespace(a=1, b=2, c="x"), isinstance(c, SimpleNamespace))
for call in [lambda: SimpleNamespace(1), lambda: SimpleNamespace({"a": 1}), lambda: hash(SimpleNamespace()),
             lambda: hash(Config()), lambda: delattr(cfg, "nothere"), lambda: delattr(c, "nothere")]:
    try:
        print(call())
    except (TypeError, AttributeError) as e:
        print(type(e).__name__, e)

data = {"a": 1, "b": 2}
mp = MappingProxyType(data)
print(mp, repr(mp), str(mp), type(mp).__name__, len(mp))
print(mp["a"], mp.get("b"), mp.get("z"), mp.get("z", 0), "a" in mp, "z" in mp)
print(list(mp), list(mp.keys()), list(mp.values()), list(mp.items()), [k for k in mp])
data["c"] = 3
print(mp, len(mp), mp["c"])
cp = mp.copy()
cp["d"] = 4
print(cp, type(cp).__name__, mp)
print(mp == {"a": 1, "b": 2, "c": 3}, mp != data, mp == MappingProxyType(dict(data)))
print(mp | {"z": 26}, {"z": 26} | mp, mp | MappingProxyType({"q": 0}))
print(MappingProxyType({}), dict(mp.items()), sorted(mp.items(), key=lambda kv: -kv[1]))
print(MappingProxyType(MappingProxyType({"x": 1}))["x"])


def set_item():
    mp["a"] = 10


def del_item():
    del mp["a"]


def set_attr():
    mp.extra = 1


for call in [set_item, del_item, set_attr, lambda: mp["zz"], lambda: MappingProxyType([1, 2]),
             lambda: MappingProxyType(None), lambda: MappingProxyType("ab"), lambda: hash(mp)]:
    try:
        print(call())
    except (TypeError, KeyError, AttributeError) as e:
        print(type(e).__name__, e)
print(data)
