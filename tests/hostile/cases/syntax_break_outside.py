# expect: exit=1 stderr="SyntaxError: 'break' outside loop"
x = 1
if x:
    break
