# expect: exit=124 stderr="timed out"
# args: --timeout 2
print(sum(1 for _ in range(10**18)))
