# expect: exit=124 stderr="timed out" stdout="started\n"
# args: --timeout 2
print("started")
n = 0
while n >= 0:
    n += 1
