# expect: exit=1 stderr="SyntaxError: unterminated string literal (detected at line 2)"
name = "linear
print(name)
