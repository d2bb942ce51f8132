# expect: exit=0 stdout="False True False False\n"
nan = float('nan')
print(nan == nan, nan != nan, nan < 0, nan > 0)
xs = sorted([3.0, nan, 1.0])
print(len(xs), max(1.0, 2.0))
print(min([nan, 1.0]) != min([nan, 1.0]) or True)
