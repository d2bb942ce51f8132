# expect: exit=1 stderr="TabError: inconsistent use of tabs and spaces in indentation"
def f(x):
    if x:
	return 1
    return 2
