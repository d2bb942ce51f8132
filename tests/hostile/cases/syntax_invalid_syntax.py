# expect: exit=1 stderr="SyntaxError: invalid syntax" stderr="line 2"
x = = 1
