# expect: exit=1 stderr="MemoryError"
s = 'a' * 10**12
print(len(s))
