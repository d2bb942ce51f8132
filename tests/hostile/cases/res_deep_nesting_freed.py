# expect: exit=0 stdout="built"
# Ten million nested lists, then freed at exit: freeing must not recurse once per level.
x = []
for i in range(10000000):
    x = [x]
print("built")
