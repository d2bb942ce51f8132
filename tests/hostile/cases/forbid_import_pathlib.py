# expect: exit=1 stderr="pathlib" stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(pathlib)\b"
import pathlib
print(pathlib)
