# expect: exit=1 stderr="RuntimeError: Set changed size during iteration"
s = {1}
for v in s:
    s.add(v + 1)
