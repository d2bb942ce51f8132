# expect: exit=1 stderr="SyntaxError: f-string: expecting '}'"
x = 1
print(f"{x")
