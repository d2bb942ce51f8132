# expect: exit=1 stderr="ValueError: cannot convert float NaN to integer"
x = float('nan')
print(int(x))
