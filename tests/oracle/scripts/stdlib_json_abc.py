# json (dumps with indent/sort_keys/separators, loads with CPython's error positions) and abc
# (abstract methods refuse instantiation, a class's __new__), str.startswith with start.
import json
from abc import ABC, abstractmethod

cfg = {"lr": 0.001, "layers": [64, 32], "name": "mlp", "flags": {"bn": True, "drop": None}, "n": -3, "e": 1e-8}
s = json.dumps(cfg)
print(s)
print(json.dumps(cfg, indent=2, sort_keys=True))
print(json.dumps([1, "a\n\"q\"", 2.5, float("inf")]), json.dumps("é"), json.dumps("é", ensure_ascii=False))
back = json.loads(s)
print(back == cfg, back["layers"], type(back["lr"]).__name__)
print(json.loads('  {"a": [1, 2, {"b": null}], "c": "x\\ty\\u0041", "d": -1.5e3, "e": true} '))
for bad in ['{"a": }', "[1, 2", '{"a" 1}', "1 2"]:
    try:
        json.loads(bad)
    except json.JSONDecodeError as e:
        print("error", e)
try:
    json.dumps({"t": object()})
except TypeError as e:
    print(e)
print(json.dumps({1: "x", 2.5: "y", None: "z"}), json.dumps({"a": 1}, separators=(",", ":")))


class Base(ABC):
    @abstractmethod
    def forward(self, x):
        pass

    def run(self, x):
        return self.forward(x) + 1


class Impl(Base):
    def forward(self, x):
        return x * 2


print(Impl().run(3))
try:
    Base()
except TypeError as e:
    print(e)


class Partial(Base):
    @abstractmethod
    def extra(self):
        pass


try:
    Partial()
except TypeError as e:
    print(e)
