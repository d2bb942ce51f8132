# expect: exit=1 stderr="SyntaxError: unexpected character after line continuation character"
x = 1 \ 2
