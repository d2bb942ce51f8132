# expect: exit=1 stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(os)\b"
def sneaky():
    import os
    return os.getcwd()


print(sneaky())
