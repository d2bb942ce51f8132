# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(__code__)\b"
def f():
    return 1


print(f.__code__)
