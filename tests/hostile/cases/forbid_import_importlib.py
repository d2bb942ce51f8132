# expect: exit=1 stderr="importlib" stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(importlib)\b"
import importlib
print(importlib)
