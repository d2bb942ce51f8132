# covers: list methods (append, extend, insert, pop, remove, index, count, sort, reverse, copy, clear) and dict methods (get, keys, values, items, update, pop, setdefault, in)
import torch

torch.manual_seed(0)
xs = [5, 3, 8]
xs.append(1)
xs.extend([9, 2])
xs.insert(0, 7)
xs.insert(-1, 4)
print(xs, len(xs))
print(xs.pop(), xs.pop(0), xs.pop(-2), xs)
xs.remove(8)
print(xs, xs.index(3), xs.count(3), 3 in xs)
xs.sort()
print(xs)
xs.sort(reverse=True)
print(xs)
xs.sort(key=lambda v: (v % 3, v))
print(xs)
xs.reverse()
print(xs)
ys = xs.copy()
ys.append(100)
print(xs, ys, xs == ys[:-1])
ys.clear()
print(ys, [[1, 2], [3]] + [[4]], [1, 2] * 2)
nested = [[0] * 3 for _ in range(2)]
nested[0][1] = 5
print(nested)

d = {"lr": 0.1, "epochs": 10}
print(d.get("lr"), d.get("wd"), d.get("wd", 0.01), "lr" in d, "wd" not in d)
d.update({"wd": 0.0, "lr": 0.05})
d.update(momentum=0.9)
print(d, len(d))
print(list(d.keys()), list(d.values()), list(d.items())[0])
print(d.pop("epochs"), d.pop("missing", "none"), d)
print(d.setdefault("beta", 0.99), d.setdefault("lr", 1), d)
counts = {}
for w in "the cat and the hat and the bat".split():
    counts[w] = counts.get(w, 0) + 1
print(counts, max(counts, key=counts.get))
grouped = {}
for i in range(7):
    grouped.setdefault(i % 3, []).append(i)
print(grouped)
d2 = dict(d)
d2["new"] = True
print(len(d), len(d2), d == d2, {"a": 1} == {"a": 1})
for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
    print(k, v)
