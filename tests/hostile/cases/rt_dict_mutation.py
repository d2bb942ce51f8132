# expect: exit=1 stderr="RuntimeError: dictionary changed size during iteration"
d = {1: 1}
for k in d:
    d[k + 1] = 1
