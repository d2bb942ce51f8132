# expect: exit=1 stderr="SyntaxError: closing parenthesis ')' does not match opening parenthesis '['"
xs = [1, 2, 3)
