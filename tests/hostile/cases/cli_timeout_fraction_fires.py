# expect: exit=124 stderr="timed out after 1.5 s"
# args: --timeout 1.5
while True:
    pass
