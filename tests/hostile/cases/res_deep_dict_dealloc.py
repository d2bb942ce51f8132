# expect: exit=0 stdout="built\n"
d = {}
for i in range(1000000):
    d = {"k": d}
print("built")
del d
