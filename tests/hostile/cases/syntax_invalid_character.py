# expect: exit=1 stderr="SyntaxError: invalid character '€' (U+20AC)"
x = 5 € 3
