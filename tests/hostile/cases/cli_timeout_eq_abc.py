# expect: exit=2 stderr="--timeout needs a number of seconds greater than 0 and at most 604800 (7 days)" nostdout=1 stderr="got 'abc'"
# args: --timeout=abc
print("ran")
