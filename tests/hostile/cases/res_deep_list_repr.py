# expect: exit=0,1
a = []
for i in range(100000):
    a = [a]
print(a)
