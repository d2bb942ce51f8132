# expect: exit=0 stdout="20000 20000\n"
# Twenty thousand generators suspended at once, each holding its own stack.
def h(i):
    yield i
    yield 1
live = []
for i in range(20000):
    x = h(i)
    next(x)
    live.append(x)
print(len(live), sum(next(x) for x in live))
