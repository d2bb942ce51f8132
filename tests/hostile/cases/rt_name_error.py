# expect: exit=1 stderr="Traceback (most recent call last):" stderr="line 3, in <module>" stderr="NameError: name 'undefined_thing' is not defined"
x = 1
print(undefined_thing)
