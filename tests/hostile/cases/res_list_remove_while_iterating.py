# expect: exit=0 stdout="[2, 4]\n"
xs = [1, 2, 3, 4]
for x in xs:
    xs.remove(x)
print(xs)
