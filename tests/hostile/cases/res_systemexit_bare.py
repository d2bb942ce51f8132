# expect: exit=0 stdout="before\n"
print("before")
raise SystemExit
print("after")
