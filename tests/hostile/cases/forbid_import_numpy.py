# expect: exit=1 stderr="numpy" stderr_re="(?m)^[\w.]*(Error|Exception|Exit)\b.*\b(numpy)\b"
import numpy
print(numpy)
