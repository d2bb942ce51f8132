# expect: exit=1 stderr="IndexError: list index out of range"
xs = [1, 2, 3]
print(xs[3])
