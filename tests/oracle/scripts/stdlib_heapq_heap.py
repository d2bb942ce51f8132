# heapq's heap functions: the list's order after heapify, heappush, heappop, heapreplace and
# heappushpop (the sifting decides where equal items land), a priority queue of tuples, a heap
# of objects that define only __lt__, heap sort, and the errors.
import heapq
from heapq import heapify, heappop, heappush, heappushpop, heapreplace

data = [9, 4, 7, 1, 8, 2, 2, 6, 3, 5, 0, 4]
h = list(data)
heapify(h)
print(h)
for v in [3, -1, 10, 4]:
    heappush(h, v)
    print("push", v, h)
print("pop", heappop(h), h)
print("pop", heappop(h), h)
print("replace", heapreplace(h, 11), h)
print("replace", heapreplace(h, -5), h)
print("pushpop", heappushpop(h, -9), h)
print("pushpop", heappushpop(h, 6), h)
print("sorted out", [heappop(h) for _ in range(len(h))], h)

for n in range(8):
    h = list(range(n, 0, -1))
    heapify(h)
    print(n, h)

words = "the quick brown fox jumps over the lazy dog again and again".split()
h = []
for w in words:
    heappush(h, w)
print(h)
print([heappop(h) for _ in range(4)], h)

tasks = []
for prio, name in [(3, "write"), (1, "plan"), (2, "test"), (1, "coffee"), (3, "ship"), (2, "fix")]:
    heappush(tasks, (prio, name))
print(tasks)
while tasks:
    print(heappop(tasks), end=" ")
print()


class Job:
    def __init__(self, prio, label):
        self.prio = prio
        self.label = label

    def __lt__(self, other):
        return self.prio < other.prio

    def __repr__(self):
        return "%s%d" % (self.label, self.prio)


jobs = [Job(p, l) for p, l in zip([2, 1, 2, 0, 1, 2, 1, 0], "abcdefgh")]
heapify(jobs)
print(jobs)
heappush(jobs, Job(1, "i"))
print(jobs)
print([heappop(jobs) for _ in range(5)], jobs)
print(heapreplace(jobs, Job(0, "j")), heappushpop(jobs, Job(1, "k")), jobs)


def heapsort(items):
    h = []
    for x in items:
        heappush(h, x)
    return [heappop(h) for _ in range(len(h))]


print(heapsort([5.5, 1, 3.25, 1.0, -2, 8]))
f = [1.5, 1, 1.0, 0.5]
heapify(f)
print(f, [type(x).__name__ for x in f])

for call in [lambda: heappop([]), lambda: heapreplace([], 1), lambda: heappushpop([], 3),
             lambda: heappush(None, 1), lambda: heapify((3, 1)), lambda: heappop(()),
             lambda: heapreplace((), 1), lambda: heappushpop((), 1), lambda: heappush([1], "a"),
             lambda: heapify([3, "a"])]:
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__, e)
