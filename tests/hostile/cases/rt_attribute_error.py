# expect: exit=1 stderr="AttributeError: 'list' object has no attribute 'push'"
xs = []
xs.push(1)
