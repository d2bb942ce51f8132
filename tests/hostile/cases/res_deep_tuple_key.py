# expect: exit=1 stderr="RecursionError"
# A key nested two million levels deep: hashing it is an error, not a crash.
t = ()
for i in range(2000000):
    t = (t,)
d = {t: 1}
