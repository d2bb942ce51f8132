# expect: exit=1 stderr="SyntaxError"
x = "ÿşÃ("
print(x)
