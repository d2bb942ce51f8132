# covers: for over range/list/tuple/string/zip/enumerate/dict items, while, break, continue, nested loops
import torch

torch.manual_seed(0)
for i in range(3):
    print("range", i)
for i in range(2, 10, 3):
    print("step", i)
for i in range(5, 0, -2):
    print("down", i)
for name in ["conv", "bn", "relu"]:
    print("layer", name)
for item in (1, "two", 3.0):
    print("tuple item", item)
for ch in "abc":
    print("char", ch)
for a, b in zip([1, 2, 3], ["x", "y", "z", "w"]):
    print("zip", a, b)
for i, name in enumerate(["w", "b"]):
    print("enum", i, name)
for i, name in enumerate(["w", "b"], start=1):
    print("enum1", i, name)
cfg = {"lr": 0.1, "epochs": 3, "name": "sgd"}
for k, v in cfg.items():
    print("item", k, v)
for k in cfg:
    print("key", k)
for v in cfg.values():
    print("value", v)
for (a, b), c in zip([(1, 2), (3, 4)], "pq"):
    print("nested unpack", a, b, c)

n = 0
while n < 5:
    n += 1
    if n == 2:
        continue
    if n == 4:
        break
    print("while", n)
print("n after", n)

found = None
for i in range(10):
    for j in range(10):
        if i * j == 12:
            found = (i, j)
            break
    if found:
        break
print("found", found)

total = 0
for i in range(20):
    if i % 3:
        continue
    total += i
print("total", total)
k = 10
while True:
    k -= 3
    if k < 0:
        break
print("k", k)
for _ in range(0):
    print("never")
print([i for i in range(-3)], list(range(3, 3)), len(range(0, 100, 7)))
