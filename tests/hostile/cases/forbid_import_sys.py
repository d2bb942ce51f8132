# expect: exit=1 stderr="sys" stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(sys)\b"
import sys
print(sys)
