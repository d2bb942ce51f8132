# expect: exit=0 stdout="built"
# Two million nested lists, then freed at exit: freeing must not recurse once per level (a
# recursive free overflows the C stack some ten thousand levels down).
x = []
for i in range(2000000):
    x = [x]
print("built")
