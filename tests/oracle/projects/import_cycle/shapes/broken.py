print("broken starts")
X = 1 / 0
