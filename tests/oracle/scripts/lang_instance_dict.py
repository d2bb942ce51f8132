# An instance's __dict__ and vars(obj): attributes in the order they were set, one live dict that
# changes with the object both ways (config classes do self.__dict__.update(kwargs)), argparse's
# Namespace through vars(), and copies that keep the order.
import argparse


class Cfg:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

    def __str__(self):
        return ", ".join("%s=%s" % (k, v) for k, v in self.__dict__.items())


c = Cfg(n_layer=2, n_head=4, dropout=0.1)
print(c, c.n_head)
c.lr = 3e-4
d = c.__dict__
print(d is c.__dict__, d is vars(c), list(d))
d["extra"] = True
print(c.extra, hasattr(c, "extra"))
del c.dropout
print(sorted(d), "dropout" in d)
d.pop("n_layer")
print(hasattr(c, "n_layer"), list(vars(c).items()))
c.__dict__ = {"z": 1}
print(vars(c), c.z)


class P:
    def __init__(self):
        self.b = 2
        self.a = 1
        self._c = 3


p = P()
print(vars(p), {k: v for k, v in vars(p).items() if not k.startswith("_")})
setattr(p, "d", 4)
object.__setattr__(p, "e", 5)
print(p.__dict__, getattr(p, "__dict__") == vars(p))
parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--lr", type=float, default=0.1)
args = parser.parse_args([])
print(vars(args))
for k, v in sorted(vars(args).items()):
    print(k, v)
q = P()
q.__dict__.setdefault("x", 9)
q.__dict__.clear()
print(vars(q), hasattr(q, "a"))
try:
    vars(3)
except TypeError as e:
    print("TypeError:", e)
import copy
r = P()
r.z = 26
r2 = copy.deepcopy(r)
r3 = copy.copy(r)
print(vars(r2), list(vars(r3)))
