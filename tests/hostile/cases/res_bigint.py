# expect: exit=any
x = 2 ** 100000
print(x % 1000)
