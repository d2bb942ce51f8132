# expect: exit=1,130 stderr="KeyboardInterrupt"
print("working")
raise KeyboardInterrupt
