# expect: exit=3 stdout="before\n"
print("before")
raise SystemExit(3)
