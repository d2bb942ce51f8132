# expect: exit=0 stdout="bom ok 3\n"
x = 1 + 2
print("bom ok", x)
