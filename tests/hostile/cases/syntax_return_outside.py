# expect: exit=1 stderr="SyntaxError: 'return' outside function"
x = 1
return x
