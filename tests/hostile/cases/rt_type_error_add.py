# expect: exit=1 stderr="TypeError: unsupported operand type(s) for +: 'int' and 'str'"
n = 1
print(n + "a")
