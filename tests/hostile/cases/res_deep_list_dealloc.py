# expect: exit=0 stdout="built\n"
a = []
for i in range(1000000):
    a = [a]
print("built")
