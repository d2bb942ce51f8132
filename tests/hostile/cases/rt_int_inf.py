# expect: exit=1 stderr="OverflowError: cannot convert float infinity to integer"
print(int(float('inf')))
