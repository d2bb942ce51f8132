# collections: namedtuple (defaults, _asdict, _replace, _make, unpacking), defaultdict, Counter,
# deque (maxlen, rotate) and OrderedDict.
import collections
from collections import namedtuple, defaultdict, deque, Counter, OrderedDict
import torch

Point = namedtuple("Point", ["x", "y"])
p = Point(1, y=2)
print(p, p.x, p[1], tuple(p), p == (1, 2), len(p), p._asdict(), p._replace(x=5), Point._fields)
x, y = p
print(x + y)
Batch = namedtuple("Batch", "inputs targets weight", defaults=[1.0])
b = Batch(torch.ones(2), torch.zeros(2))
print(b.weight, b.inputs.sum().item(), Batch._make([1, 2, 3]))
try:
    Point(1)
except TypeError as e:
    print(e)
d = defaultdict(list)
d["a"].append(1)
d["b"].append(2)
d["a"].append(3)
print(d, dict(d.items()), len(d), "a" in d, "z" in d)
dd = defaultdict(int)
for w in "the cat the hat the".split():
    dd[w] += 1
print(sorted(dd.items()))
c = Counter("abracadabra")
print(c, c.most_common(2), c["z"], c.total())
c.update("aa")
print(c["a"], sorted(c.elements())[:4])
q = deque([1, 2, 3], maxlen=3)
q.append(4)
q.appendleft(0)
print(q, len(q), q.popleft(), q.pop(), list(q))
r = deque(range(5))
r.rotate(2)
print(r)
o = OrderedDict()
o["b"] = 1
o["a"] = 2
print(o, list(o.keys()), isinstance(o, dict))
print(collections.OrderedDict is OrderedDict)
