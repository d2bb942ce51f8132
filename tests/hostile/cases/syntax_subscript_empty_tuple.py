# expect: exit=1 stderr="SyntaxError: invalid syntax. Perhaps you forgot a comma?"
# found by tests/fuzz (fuzz_parse): the parser read the last element of an empty tuple (a crash)
x = [1, 2]
print(x[() 1])
