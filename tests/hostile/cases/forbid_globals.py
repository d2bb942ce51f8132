# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(globals)\b"
g = globals()
print(sorted(g))
