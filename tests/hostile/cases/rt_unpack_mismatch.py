# expect: exit=1 stderr="ValueError: too many values to unpack (expected 2)"
a, b = [1, 2, 3]
