# expect: exit=1 stderr="IndentationError: unexpected indent" stderr="line 3"
x = 1
    y = 2
print(x)
