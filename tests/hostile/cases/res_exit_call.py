# expect: exit=2 stdout="bye\n"
print("bye")
exit(2)
print("not here")
