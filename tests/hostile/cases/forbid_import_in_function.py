# expect: exit=1 stderr_re="PermissionError: os\.popen is not available"
def sneaky():
    import os
    return os.popen("id").read()


print(sneaky())
