# expect: exit=0 stdout="quitting\n"
print("quitting")
quit()
print("not here")
