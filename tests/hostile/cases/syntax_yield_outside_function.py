# expect: exit=1 stderr="SyntaxError: 'yield' outside function"
x = 1
yield x
