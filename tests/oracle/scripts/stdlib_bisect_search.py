# bisect: bisect_left / bisect_right / bisect and insort_left / insort_right / insort with lo,
# hi and key, on ints, strings and records; the positions of equal items; the errors.
import bisect
from bisect import bisect_left, bisect_right, insort_left, insort_right

a = [1, 2, 4, 4, 4, 7, 9]
for x in [0, 1, 3, 4, 5, 9, 10]:
    print(x, bisect_left(a, x), bisect_right(a, x), bisect.bisect(a, x))
print(bisect_left(a, 4, 4), bisect_left(a, 4, 0, 3), bisect_right(a, 4, hi=4), bisect_right(a, 4, lo=6))
print(bisect_left(a, 4, 5), bisect_left(a, 4, hi=-1), bisect_left(a, 4, hi=-5), bisect_left(a, 100, 0, 3))
print(bisect_left([], 1), bisect_right([], 1), bisect_left("acegi", "d"), bisect_right(("a", "b", "b"), "b"))


def grade(score, breakpoints=(60, 70, 80, 90), grades="FDCBA"):
    return grades[bisect.bisect(breakpoints, score)]


print([grade(s) for s in [33, 99, 77, 70, 89, 90, 100]])

records = [("ada", 36), ("bob", 41), ("cy", 41), ("dee", 58)]
age = lambda r: r[1]
print(bisect_left(records, 41, key=age), bisect_right(records, 41, key=age), bisect.bisect(records, 50, key=age))
print(bisect_left(records, 41, 2, key=age), bisect_right(records, 41, 0, 2, key=age))

b = []
for v in [5, 1, 4, 1, 5, 9, 2, 6, 5, 3]:
    insort_right(b, v)
print(b)
c = [1.0, 2.0, 2.0, 3.0]
insort_left(c, 2)
insort_right(c, 2)
bisect.insort(c, 2.5)
print(c, [type(v).__name__ for v in c])

people = []
for rec in [("eve", 30), ("fay", 25), ("gus", 30), ("hal", 25), ("ivy", 40)]:
    bisect.insort(people, rec, key=age)
print(people)
people2 = []
for rec in [("eve", 30), ("fay", 25), ("gus", 30), ("hal", 25)]:
    bisect.insort_left(people2, rec, key=age)
print(people2)
words = ["pear", "fig", "apple", "kiwi", "banana"]
ordered = []
for w in words:
    insort_left(ordered, w, key=len)
print(ordered)
lim = [0, 10, 20, 30]
insort_right(lim, 15, 1, 3)
print(lim)


class Version:
    def __init__(self, text):
        self.parts = tuple(int(p) for p in text.split("."))
        self.text = text

    def __lt__(self, other):
        return self.parts < other.parts

    def __repr__(self):
        return "V%s" % self.text


vs = [Version("1.2"), Version("1.10"), Version("2.0")]
print(bisect_left(vs, Version("1.9")), bisect_right(vs, Version("1.10")))
bisect.insort(vs, Version("1.3"))
print(vs)

for call in [lambda: bisect_left(a, 1, -1), lambda: insort_left([1], 2, lo=-3),
             lambda: bisect_right([1, 2], "x"), lambda: bisect_left(a, 1, None),
             lambda: bisect_left(a, 2, 1.5), lambda: bisect_left(None, 1),
             lambda: bisect.insort((1, 2), 3)]:
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__, e)
