# covers: list, tuple, dict, set constructors, sorted (key=, reverse=), reversed, any, all, map, zip, enumerate, filter, range
import torch

torch.manual_seed(0)
print(list("abc"), list((1, 2)), list(range(3)), list({"a": 1, "b": 2}), list())
print(tuple([1, 2]), tuple("hi"), tuple(), tuple(range(2)))
print(dict(a=1, b=2), dict([("x", 1), ("y", 2)]), dict(zip("ab", [1, 2])), dict())
print(set([3, 1, 2, 3]), set(), sorted(set("banana")))
words = ["pear", "Apple", "fig", "banana"]
print(sorted(words), sorted(words, key=lambda w: w.lower()), sorted(words, key=len, reverse=True))
print(sorted([3, 1, 2], reverse=True), sorted((5, -6, 1), key=abs), sorted({"b": 1, "a": 2}))
recs = [("a", 3), ("b", 1), ("c", 2), ("d", 1)]
print(sorted(recs, key=lambda r: r[1]), sorted(recs, key=lambda r: (-r[1], r[0])))
print(list(reversed([1, 2, 3])), list(reversed(range(4))), "".join(reversed("abc")))
print(any([]), all([]), any([0, "", None]), any([0, 1]), all([1, "a"]), all([1, 0]))
print(list(map(str, [1, 2])), list(map(lambda a, b: a * b, [1, 2, 3], [4, 5, 6])), list(map(abs, (-1, 2))))
print(list(zip([1, 2, 3], "ab")), list(zip()), list(zip([1], [2], [3])))
print(list(enumerate("xy")), list(enumerate([5, 6], 10)))
print(list(filter(None, [0, 1, "", "a"])), list(filter(lambda v: v > 1, [1, 2, 3])))
print(list(range(0)), list(range(1, 10, 4)), range(5)[-1], 3 in range(5), range(2, 8)[1:3])
s = {1, 2, 3}
s.add(4)
s.discard(1)
print(s, sorted(s | {9}), s & {2, 3, 7}, s - {2}, {1, 2} <= {1, 2, 3}, len(s))
t = (3, 1, 3)
print(t.count(3), t.index(1), sorted(t), min(t), max(t))
d = dict([(k, 0) for k in ["a", "b"]])
print(d, list(d.items()), list(d.keys()), list(d.values()))
