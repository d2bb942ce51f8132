# expect: exit=4 stdout="before\n"
import sys
print("before")
sys.exit(4)
print("after")
