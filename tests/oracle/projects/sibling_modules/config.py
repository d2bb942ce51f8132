WIDTH = 6
HIDDEN = 10
LOADS = 0
LOADS += 1
print("config loaded")
