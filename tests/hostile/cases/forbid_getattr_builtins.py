# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(__builtins__|open)\b"
f = getattr(__builtins__, 'open')
print(f('x'))
