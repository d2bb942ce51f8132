# heapq.nsmallest / nlargest (n of 0, 1, past the length; key; iterators; equal items keep the
# order they came in) and heapq.merge (lazy, key, reverse, ties to the earlier input).
import heapq

nums = [5, 1, 8, 3, 9, 3, 2, 8, 7, 0, 6]
for n in [-1, 0, 1, 2, 3, 5, 11, 20]:
    print(n, heapq.nsmallest(n, nums), heapq.nlargest(n, nums))
print(heapq.nsmallest(3, iter(nums)), heapq.nlargest(3, (x * x for x in nums)))
print(heapq.nsmallest(2, []), heapq.nlargest(1, []), heapq.nlargest(1, iter([])), heapq.nsmallest(1, "hello"))

people = [("ann", 31), ("bo", 25), ("cat", 31), ("dan", 19), ("eve", 25), ("fin", 40), ("gil", 31)]
age = lambda p: p[1]
for n in [1, 2, 3, 4, 7]:
    print(n, heapq.nsmallest(n, people, key=age))
    print(n, heapq.nlargest(n, people, key=age))
print(heapq.nlargest(3, "a bb ccc dd e ffff".split(), key=len))
print(heapq.nsmallest(4, "Banana apple Cherry date Elder fig".split(), key=str.lower))
print(heapq.nlargest(2, {"x": 3, "y": 9, "z": 1}.items(), key=lambda kv: kv[1]))


class Item:
    def __init__(self, score, tag):
        self.score = score
        self.tag = tag

    def __lt__(self, other):
        return self.score < other.score

    def __repr__(self):
        return "%s:%d" % (self.tag, self.score)


items = [Item(s, t) for s, t in zip([3, 1, 3, 2, 1, 3, 0, 2, 1, 3], "abcdefghij")]
for n in [2, 3, 4, 6]:
    print(n, heapq.nsmallest(n, iter(items)), heapq.nlargest(n, iter(items)))
    print(n, heapq.nsmallest(n, items, key=lambda it: it.score), heapq.nlargest(n, items, key=lambda it: it.score))

print(list(heapq.merge([1, 3, 5, 7], [0, 2, 4, 8], [5, 10])))
print(list(heapq.merge()), list(heapq.merge([])), list(heapq.merge([], [1], [])))
print(list(heapq.merge([1.0, 2, 3], [1, 2.0, 3.0])))
print(list(heapq.merge(["apple", "fig"], ["kiwi", "banana"], key=len)))
print(list(heapq.merge([9, 5, 1], [8, 5, 2], reverse=True)))
print(list(heapq.merge([(3, "c"), (1, "a")], [(2, "b"), (1, "z")], key=lambda t: t[0], reverse=True)))
print(list(heapq.merge([Item(1, "a"), Item(2, "b")], [Item(1, "c"), Item(2, "d")], [Item(0, "e"), Item(1, "f")])))
print(list(heapq.merge([Item(1, "a"), Item(2, "b")], [Item(1, "c"), Item(2, "d")], key=lambda it: it.score)))


def source(name, values):
    for v in values:
        print("  read", name, v)
        yield v


m = heapq.merge(source("A", [1, 4]), source("B", [2, 3]), key=lambda v: -(-v))
print("made")
print("got", next(m))
print("got", next(m))
print("rest", list(m))
keys = []
print(list(heapq.merge([1, 5, 9], [2, 3], key=lambda v: keys.append(v) or v)), keys)
try:
    list(heapq.merge([1], key=len, rev=1))
except TypeError as e:
    print("TypeError", e)
