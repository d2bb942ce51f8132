# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(breakpoint)\b"
breakpoint()
print('after')
