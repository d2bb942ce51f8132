X = 1
raise ValueError("this package refuses to load")
