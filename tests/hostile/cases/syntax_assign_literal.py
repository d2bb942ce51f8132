# expect: exit=1 stderr="SyntaxError: cannot assign to literal"
x = 2
1 = x
