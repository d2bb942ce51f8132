# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(open)\b"
f = open('x')
print(f.read())
