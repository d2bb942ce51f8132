# expect: exit=124 stderr="timed out"
# args: --timeout 2
print(any(i < 0 for i in range(10**18)))
