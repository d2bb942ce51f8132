# expect: exit=124 stderr="timed out after 2 s" stdout="started\n"
# args: --timeout=2
print("started")
while True:
    pass
