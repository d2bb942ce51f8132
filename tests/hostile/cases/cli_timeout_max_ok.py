# expect: exit=0 stdout="ran\n"
# args: --timeout 604800
print("ran")
