# expect: exit=1 stderr="ctypes" stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(ctypes)\b"
import ctypes
print(ctypes)
