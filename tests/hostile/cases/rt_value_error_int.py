# expect: exit=1 stderr="ValueError: invalid literal for int() with base 10: 'abc'"
print(int("abc"))
