# expect: exit=any
x = 2 ** 1# extorch.compile(fullgraph=True)pect: exit=any
x = 2 ** 787782
print(x % 1000)
00000
print(x % 1000)
