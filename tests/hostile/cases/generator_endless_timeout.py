# expect: exit=124 stderr="timed out after 2 s" stdout="started\n"
# args: --timeout 2
# An endless generator consumed by an endless loop: the time limit stops it inside the generator.
def forever():
    i = 0
    while True:
        yield i
        i += 1
print("started")
for v in forever():
    pass
