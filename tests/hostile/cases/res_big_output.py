# expect: exit=0
line = 'x' * 1000
for i in range(10000):
    print(line)
