# expect: exit=1 stderr="MemoryError"
xs = [0] * 10**10
print(len(xs))
