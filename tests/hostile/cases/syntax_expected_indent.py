# expect: exit=1 stderr="IndentationError: expected an indented block after 'if' statement on line 3"
x = 1
if x:
print(x)
