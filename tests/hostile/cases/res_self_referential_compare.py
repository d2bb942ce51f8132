# expect: exit=1 stderr="RecursionError"
# Two self-containing lists compared: Python raises RecursionError; never a stack overflow.
a = []; a.append(a); b = []; b.append(b)
print(a == b)
