# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(__import__|os)\b"
m = __import__('os')
print(m.getcwd())
