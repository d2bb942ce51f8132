# random (CPython's Mersenne Twister sequence for the same seed), time, warnings and copy
# (deepcopy of an nn.Module for an EMA copy, of nested configs; copy of instances).
import copy
import random
import time
import warnings

import torch
import torch.nn as nn

random.seed(0)
print(random.random(), random.randint(1, 100), random.randrange(10), random.randrange(0, 20, 3))
print(random.choice("abcdef"), random.sample(range(100), 5), random.uniform(1, 2))
xs = list(range(10))
random.shuffle(xs)
print(xs)
print(random.gauss(0, 1), random.normalvariate(1, 2), random.expovariate(1.5))
print(random.getrandbits(70), random.choices(["a", "b", "c"], weights=[1, 2, 3], k=5))
random.seed(12345678901)
print(random.random(), random.sample(range(1000), 30)[:5])
r = random.Random(7)
print(r.random(), r.randint(0, 9))
random.seed(-5)
print(random.random())
t0 = time.time()
p0 = time.perf_counter()
time.sleep(0.01)
print(time.time() - t0 >= 0.0, time.perf_counter() - p0 >= 0.009)


def old_api():
    warnings.warn("old_api is deprecated", DeprecationWarning)
    return 1


warnings.simplefilter("always")
old_api()
warnings.warn("plain")
warnings.simplefilter("ignore")
warnings.warn("hidden")
warnings.resetwarnings()
warnings.simplefilter("error", UserWarning)
try:
    warnings.warn("boom")
except UserWarning as e:
    print("raised", e)
warnings.resetwarnings()

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
ema = copy.deepcopy(model)
with torch.no_grad():
    for p in model.parameters():
        p.add_(1.0)
print([round((a - b).abs().sum().item(), 4) for a, b in zip(model.parameters(), ema.parameters())])
print(ema)
print(type(ema[0].weight).__name__, ema[0].weight.requires_grad)
cfg = {"layers": [1, 2, {"k": [3]}], "name": "x"}
c2 = copy.deepcopy(cfg)
c2["layers"][2]["k"].append(4)
print(cfg, c2)
sh = copy.copy(cfg)
print(sh["layers"] is cfg["layers"], sh is cfg)


class Pt:
    def __init__(self, x):
        self.x = x


a = Pt([1])
b = copy.copy(a)
d = copy.deepcopy(a)
a.x.append(2)
print(b.x, d.x)
