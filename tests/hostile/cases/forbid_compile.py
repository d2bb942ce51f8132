# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(compile)\b"
code = compile('1 + 1', 'f', 'eval')
print(code)
