# expect: exit=1 stderr="ZeroDivisionError: division by zero"
steps = 0
print(10 / steps)
