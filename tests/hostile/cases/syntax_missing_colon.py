# expect: exit=1 stderr="SyntaxError: expected ':'" stderr="line 3"
x = 1
if x > 0
    print(x)
