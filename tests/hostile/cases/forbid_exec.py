# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(exec)\b"
exec('x=1')
print(x)
