# expect: exit=1 stderr="MemoryError"
xs = list(range(10**10))
print(len(xs))
