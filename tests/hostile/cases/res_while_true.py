# expect: exit=124 stderr="timed out"
# args: --timeout 2
while True:
    pass
